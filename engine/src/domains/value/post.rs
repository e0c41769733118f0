//! The strongest post of explicit-value analysis along one CFA edge, without a solver: the
//! transfer of the classic value analysis (the symbolic-execution thesis digest, Sect. 2.4; the
//! efficient-CEGAR paper's sp and sp′, Sect. 1.2 and 3.1.1). Used by the transfer relation and
//! by value interpolation, so that refinement reasons with exactly the analysis' semantics.
//!
//! * `assume(p)`: evaluated with the known values; false gives no successor; when it cannot be
//!   evaluated the state is kept (and `x == c` teaches `x = c`), marked *unknown*;
//! * `w := e`: the value of `e` if every variable it reads is known, otherwise `w` is forgotten
//!   (never kept with its old value, the thesis digest's pitfall 6), marked *unknown* when `e`
//!   read an unknown variable; a nondeterministic value forgets `w`;
//! * calls and returns pass values between frames; a callee's frame is forgotten when it
//!   returns, so a later activation never reads a stale value.
//!
//! Every value is converted to the type of the variable it is stored in (wrap-around, as the
//! concrete semantics). Undefined operations (division by zero, bad shifts) give an unknown
//! value: the analysis over-approximates them.

use crate::cfa::{Cfa, Edge, EdgeKind, Rhs};
use crate::cpa::control::ControlState;
use crate::domains::value::ValueState;
use crate::formula::{Frames, Slot};
use crate::ir::semantics;
use crate::ir::{BinOp, Expr, ExprKind, FuncId, VarId};

/// The result of [`post`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Post {
    /// `None`: the edge is infeasible from the state (⊥).
    pub state: Option<ValueState>,
    /// An assumption or an assignment read a variable with an unknown value (sp′'s *unknown*):
    /// a solver could know more.
    pub unknown: bool,
}

/// The frames a transfer reads in and writes to.
pub struct Frames2 {
    pub read: Frames,
    pub write: Frames,
}

impl Frames2 {
    pub fn of(cfa: &Cfa, from: &ControlState, to: &ControlState) -> Frames2 {
        Frames2 {
            read: Frames::of(cfa, from),
            write: Frames::of(cfa, to),
        }
    }
}

/// The value of `e` in `s` (variables read in `frames`), `None` when unknown or undefined.
pub fn eval(cfa: &Cfa, s: &ValueState, frames: &Frames, e: &Expr) -> Option<i128> {
    semantics::eval(e, &|v| s.values.get(&frames.slot(cfa, v)).copied()).ok()
}

/// `x == c` or `c == x` (or their negations, on the false branch) as an equality to learn.
pub(crate) fn learned_equality(cond: &Expr, truth: bool) -> Option<(VarId, i128)> {
    let ExprKind::Binary(op, a, b) = &cond.kind else {
        return None;
    };
    let eq = match (op, truth) {
        (BinOp::Eq, true) | (BinOp::Ne, false) => true,
        _ => return None,
    };
    debug_assert!(eq);
    let var_of = |e: &Expr| match &e.kind {
        ExprKind::Var(v) => Some((*v, e.ty)),
        ExprKind::Cast { operand, .. } => match &operand.kind {
            // A widening conversion keeps the value (`(int)c == 5` teaches `c = 5` when it fits).
            ExprKind::Var(v) if operand.ty.bits() <= e.ty.bits() => Some((*v, operand.ty)),
            _ => None,
        },
        _ => None,
    };
    let (v, ty, c) = match (var_of(a), b.as_const(), var_of(b), a.as_const()) {
        (Some((v, ty)), Some(c), _, _) | (_, _, Some((v, ty)), Some(c)) => (v, ty, c),
        _ => return None,
    };
    // Only a value the variable can hold; otherwise the assumption is false, which the
    // evaluation would have seen had the variable been known: keep it unknown.
    ty.contains(c).then_some((v, c))
}

/// Forgets every slot of `f`'s activation `instance` (value and symbolic states alike).
pub(crate) fn forget_frame<T>(
    cfa: &Cfa,
    values: &mut std::collections::BTreeMap<Slot, T>,
    f: FuncId,
    instance: u32,
) {
    values.retain(|slot, _| !(cfa.var(slot.var).function == Some(f) && slot.instance == instance));
}

fn store(cfa: &Cfa, s: &mut ValueState, slot: Slot, value: Option<i128>) {
    match value {
        Some(v) => {
            s.values.insert(slot, cfa.var(slot.var).ty.wrap(v));
        }
        None => {
            s.values.remove(&slot);
        }
    }
}

/// Whether `e` reads a variable without a known value in `s`.
fn reads_unknown(cfa: &Cfa, s: &ValueState, frames: &Frames, e: &Expr) -> bool {
    let mut unknown = false;
    e.for_each_var(&mut |v| unknown |= !s.values.contains_key(&frames.slot(cfa, v)));
    unknown
}

/// The strongest post of `s` along `edge` from control state `from` to `to`.
pub fn post(
    cfa: &Cfa,
    s: &ValueState,
    edge: &Edge,
    from: &ControlState,
    to: &ControlState,
) -> Post {
    let fr = Frames2::of(cfa, from, to);
    let mut next = s.clone();
    let mut unknown = false;
    match &edge.kind {
        EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
        EdgeKind::Assume { cond, truth } => match eval(cfa, s, &fr.read, cond) {
            Some(v) => {
                if (v != 0) != *truth {
                    return Post {
                        state: None,
                        unknown: false,
                    };
                }
            }
            None => {
                unknown = reads_unknown(cfa, s, &fr.read, cond);
                if let Some((v, c)) = learned_equality(cond, *truth) {
                    store(cfa, &mut next, fr.write.slot(cfa, v), Some(c));
                }
            }
        },
        EdgeKind::Assign { lhs, rhs } => {
            let value = match rhs {
                Rhs::Expr(e) => {
                    unknown = reads_unknown(cfa, s, &fr.read, e);
                    eval(cfa, s, &fr.read, e)
                }
                Rhs::Nondet { .. } => None,
            };
            store(cfa, &mut next, fr.write.slot(cfa, *lhs), value);
        }
        EdgeKind::Declare { var, init } => {
            let value = match init {
                Some(Rhs::Expr(e)) => {
                    unknown = reads_unknown(cfa, s, &fr.read, e);
                    eval(cfa, s, &fr.read, e)
                }
                Some(Rhs::Nondet { .. }) | None => None,
            };
            store(cfa, &mut next, fr.write.slot(cfa, *var), value);
        }
        EdgeKind::Call { callee, args, .. } => {
            let values: Vec<Option<i128>> =
                args.iter().map(|a| eval(cfa, s, &fr.read, a)).collect();
            // The new activation starts with nothing known (its locals are uninitialised).
            let instance = fr.write.slot_instance(*callee);
            forget_frame(cfa, &mut next.values, *callee, instance);
            let params = cfa.function(*callee).params.clone();
            for (p, v) in params.into_iter().zip(values) {
                store(cfa, &mut next, fr.write.slot(cfa, p), v);
            }
        }
        EdgeKind::ReturnValue { function, value } => {
            if let (Some(e), Some((_, rv))) = (value, cfa.function(*function).ret) {
                unknown = reads_unknown(cfa, s, &fr.read, e);
                let v = eval(cfa, s, &fr.read, e);
                store(cfa, &mut next, fr.write.slot(cfa, rv), v);
            }
        }
        EdgeKind::Return { callee, assign, .. } => {
            let ret = cfa
                .function(*callee)
                .ret
                .and_then(|(_, rv)| s.values.get(&fr.read.slot(cfa, rv)).copied());
            forget_frame(
                cfa,
                &mut next.values,
                *callee,
                fr.read.slot_instance(*callee),
            );
            if let Some(a) = assign {
                store(cfa, &mut next, fr.write.slot(cfa, *a), ret);
            }
        }
    }
    Post {
        state: Some(next),
        unknown,
    }
}

/// The post along a sequence of (edge, control state before, control state after): `None` as
/// soon as one edge is infeasible.
pub fn post_path<'e>(
    cfa: &Cfa,
    s: &ValueState,
    steps: impl IntoIterator<Item = (&'e Edge, &'e ControlState, &'e ControlState)>,
) -> Option<ValueState> {
    let mut cur = s.clone();
    for (e, from, to) in steps {
        cur = post(cfa, &cur, e, from, to).state?;
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpa::control::ControlCpa;

    fn cfa(src: &str) -> Cfa {
        crate::frontend::parse_program("t.c", src).unwrap().cfa
    }

    /// The control states around `edge` when the program is at call depth `depth` (the
    /// stack holds `depth` copies of an arbitrary return site; only the frames matter).
    fn around(cfa: &Cfa, edge: &Edge) -> (ControlState, ControlState) {
        let control = ControlCpa {
            loop_bound: None,
            max_depth: 8,
            cut_states: false,
        };
        let mut from = control.initial_at(cfa, edge.from);
        if let EdgeKind::Return { .. } = edge.kind {
            std::rc::Rc::make_mut(&mut from.stack).push(edge.to);
        } else if cfa.node(edge.from).function != cfa.main {
            let site = cfa
                .edges
                .iter()
                .find_map(|e| match e.kind {
                    EdgeKind::Call { return_site, .. } => Some(return_site),
                    _ => None,
                })
                .unwrap();
            std::rc::Rc::make_mut(&mut from.stack).push(site);
        }
        let to = control.successor(cfa, &from, edge).unwrap().unwrap();
        (from, to)
    }

    fn edge<'c>(cfa: &'c Cfa, label: &str) -> &'c Edge {
        cfa.edges
            .iter()
            .find(|e| cfa.label(&e.kind) == label)
            .unwrap_or_else(|| panic!("no edge '{label}'"))
    }

    fn slot(cfa: &Cfa, qualified: &str) -> Slot {
        let v = cfa
            .vars
            .iter()
            .position(|v| v.qualified == qualified)
            .unwrap();
        Slot {
            var: VarId(v as u32),
            instance: 0,
        }
    }

    fn known(pairs: &[(Slot, i128)]) -> ValueState {
        ValueState {
            values: pairs.iter().copied().collect(),
        }
    }

    fn step(cfa: &Cfa, s: &ValueState, label: &str) -> Post {
        let e = edge(cfa, label);
        let (from, to) = around(cfa, e);
        post(cfa, s, e, &from, &to)
    }

    const SRC: &str = "extern int __VERIFIER_nondet_int(void);\n\
        int f(int set) { int x; if (set) x = 5; return x; }\n\
        int main(void) { int a = 1; int b = 7; a = __VERIFIER_nondet_int(); b = a + 1; \
        if (b == 3) { b = 4; } int r = f(0); return 0; }";

    /// The thesis digest's pitfall 6: an assignment with an unknown value forgets the
    /// variable, it never keeps the old value.
    #[test]
    fn unknown_assignments_forget() {
        let c = cfa(SRC);
        let (a, b) = (slot(&c, "main::a"), slot(&c, "main::b"));
        let s = known(&[(a, 1), (b, 7)]);
        let p = step(&c, &s, "a = __VERIFIER_nondet_int();");
        assert_eq!(p.state, Some(known(&[(b, 7)])));
        assert!(
            !p.unknown,
            "a nondeterministic value is not an evaluation failure"
        );
        let p = step(&c, &known(&[(b, 7)]), "b = a + 1;");
        assert_eq!(p.state, Some(known(&[])));
        assert!(p.unknown, "a + 1 reads the unknown a");
        let p = step(&c, &known(&[(a, 2)]), "b = a + 1;");
        assert_eq!(p.state, Some(known(&[(a, 2), (b, 3)])));
    }

    /// Assumptions: false gives ⊥, true keeps the state, unknown keeps it and learns `x == c`.
    #[test]
    fn assumptions_cut_keep_or_learn() {
        let c = cfa(SRC);
        let b = slot(&c, "main::b");
        assert_eq!(step(&c, &known(&[(b, 2)]), "[b == 3]").state, None);
        assert_eq!(
            step(&c, &known(&[(b, 3)]), "[b == 3]").state,
            Some(known(&[(b, 3)]))
        );
        let p = step(&c, &known(&[]), "[b == 3]");
        assert_eq!(p.state, Some(known(&[(b, 3)])));
        assert!(p.unknown);
        let p = step(&c, &known(&[]), "[!(b == 3)]");
        assert_eq!(p.state, Some(known(&[])));
    }

    /// An uninitialised local is unknown, and a returning callee's frame is forgotten: the
    /// next activation never reads a stale value.
    #[test]
    fn frames_are_forgotten_on_return_and_declarations_are_unknown() {
        let c = cfa(SRC);
        let x = slot(&c, "f::x");
        let ret = slot(&c, "f::__retval__");
        let set = slot(&c, "f::set");
        let p = step(&c, &known(&[(x, 5)]), "int x;");
        assert_eq!(p.state, Some(known(&[])));
        let ret_edge = c
            .edges
            .iter()
            .find(|e| matches!(e.kind, EdgeKind::Return { .. }))
            .unwrap();
        let (from, to) = around(&c, ret_edge);
        let p = post(
            &c,
            &known(&[(x, 5), (ret, 5), (set, 1)]),
            ret_edge,
            &from,
            &to,
        );
        let after = p.state.unwrap();
        assert!(
            after
                .values
                .keys()
                .all(|s| c.var(s.var).function != Some(FuncId(0))),
            "{after:?}"
        );
        // The returned value reaches the caller's variable.
        assert_eq!(after.values.values().copied().collect::<Vec<_>>(), vec![5]);
    }
}
