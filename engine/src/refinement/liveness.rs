//! Which variable slots a path reads before it writes them (live variables along one path).
//!
//! Value and symbolic interpolation (the efficient-CEGAR paper's Algorithm 2, the
//! symbolic-execution thesis' Algorithms 6 and 7) drop from Γi every variable whose absence
//! keeps the rest of the path contradicting, one trial (a replay of the rest) per variable.
//! A slot that the rest of the path does not read before writing it cannot matter to that
//! replay: the posts read values only through the edges' expressions (and a return reads the
//! callee's return variable), and a write replaces a slot's value whatever it was. Such a slot
//! is dropped without a trial, with the same outcome: the interpolants are exactly those of
//! the trials (CPAchecker's value interpolation skips such variables the same way).
//!
//! The live sets over-approximate: a call's forgetting of the callee's frame and an
//! assumption's learned equality are not counted as writes.

use crate::cfa::{Cfa, EdgeKind, Rhs};
use crate::formula::{Frames, Slot};
use crate::proof::counterexample::EdgeStep;
use std::collections::{BTreeMap, BTreeSet};

/// The liveness of one path's slots.
pub struct Liveness {
    /// `live[i]`: the slots `steps[i..]` read before writing them (`live[steps.len()]` is
    /// empty).
    pub live: Vec<BTreeSet<Slot>>,
    /// `reads[i]`: the slots step `i` reads (in the frames before it).
    pub reads: Vec<BTreeSet<Slot>>,
}

/// The liveness of the slots along `steps`.
pub fn live_slots(cfa: &Cfa, steps: &[EdgeStep]) -> Liveness {
    let mut live = vec![BTreeSet::new(); steps.len() + 1];
    let mut reads = vec![BTreeSet::new(); steps.len()];
    for (i, step) in steps.iter().enumerate().rev() {
        let (uses, defs) = uses_defs(cfa, step);
        let mut l = live[i + 1].clone();
        for d in &defs {
            l.remove(d);
        }
        l.extend(uses.iter().copied());
        live[i] = l;
        reads[i] = uses.into_iter().collect();
    }
    Liveness { live, reads }
}

/// Whether interpolation keeps `slot` of Γi without a trial: Γ(i-1) kept it with the same
/// value and edge i-1 (which reads `read`) does not read it. Its trial at i-1 failed: the
/// rest from edge i-1 on did not contradict from Γ'(i-1) without the slot (Γ'(i-1), the state
/// at that trial, holds at least Γ(i-1)). Edge i-1 does not read the slot, so its post from
/// Γ'(i-1) without the slot holds at least what its post from Γ'(i-1) holds besides the slot,
/// and that holds at least Γi's current state without the slot; the posts being monotone,
/// the rest from edge i on does not contradict from that either: the trial at i would fail
/// too. (Constraints are never read by an edge in this sense, so a constraint Γ(i-1) kept is
/// kept the same way.) Where an over-approximation makes a post not monotone, the slot is
/// kept where a trial might have dropped it: Γi stays an interpolant, only more precise.
pub fn kept_before<T: PartialEq>(
    read: &BTreeSet<Slot>,
    prev: &BTreeMap<Slot, T>,
    cur: &BTreeMap<Slot, T>,
    slot: Slot,
) -> bool {
    !read.contains(&slot) && matches!(prev.get(&slot), Some(p) if cur.get(&slot) == Some(p))
}

/// The slots one step reads (in the frames before it) and writes (in the frames after it).
fn uses_defs(cfa: &Cfa, step: &EdgeStep) -> (Vec<Slot>, Vec<Slot>) {
    let read = Frames::of(cfa, &step.from);
    let write = Frames::of(cfa, &step.to);
    let mut uses = Vec::new();
    let mut defs = Vec::new();
    let expr = |e: &crate::ir::Expr, uses: &mut Vec<Slot>| {
        e.for_each_var(&mut |v| uses.push(read.slot(cfa, v)));
    };
    match &cfa.edge(step.edge).kind {
        EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
        EdgeKind::Assume { cond, .. } => expr(cond, &mut uses),
        EdgeKind::Assign { lhs, rhs } => {
            if let Rhs::Expr(e) = rhs {
                expr(e, &mut uses);
            }
            defs.push(write.slot(cfa, *lhs));
        }
        EdgeKind::Declare { var, init } => {
            if let Some(Rhs::Expr(e)) = init {
                expr(e, &mut uses);
            }
            defs.push(write.slot(cfa, *var));
        }
        EdgeKind::Call { callee, args, .. } => {
            for a in args {
                expr(a, &mut uses);
            }
            for p in &cfa.function(*callee).params {
                defs.push(write.slot(cfa, *p));
            }
        }
        EdgeKind::ReturnValue { function, value } => {
            if let (Some(e), Some((_, rv))) = (value, cfa.function(*function).ret) {
                expr(e, &mut uses);
                defs.push(write.slot(cfa, rv));
            }
        }
        EdgeKind::Return { callee, assign, .. } => {
            if let Some((_, rv)) = cfa.function(*callee).ret {
                uses.push(read.slot(cfa, rv));
            }
            if let Some(a) = assign {
                defs.push(write.slot(cfa, *a));
            }
        }
    }
    (uses, defs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refinement::value::tests::{cfa, error_path};

    /// The live slots before each edge of the error path, as `edge label: names`.
    fn live_along(src: &str) -> Vec<String> {
        let c = cfa(src);
        let steps = error_path(&c);
        let live = live_slots(&c, &steps).live;
        steps
            .iter()
            .zip(&live)
            .map(|(s, l)| {
                let names: Vec<String> = l
                    .iter()
                    .map(|slot| format!("{}#{}", c.var(slot.var).name, slot.instance))
                    .collect();
                format!("{}: {}", c.label(&c.edge(s.edge).kind), names.join(" "))
            })
            .collect()
    }

    /// A slot is live from its last write to its next read: `z` is never read, `y` is
    /// written before it is read, a parameter is live from the call to its read, and the
    /// callee's return variable from `return` to the return edge.
    #[test]
    fn live_slots_run_from_a_read_back_to_the_write_before_it() {
        let got = live_along(
            "extern void reach_error(void);\n\
             int f(int a) { return a + 1; }\n\
             int main(void) { int x = 1; int y = 2; int z = 3; y = x; int r = f(y); \
             if (r != 2) reach_error(); return 0; }",
        );
        let want = [
            "Function start dummy edge: ",
            "int x = 1;: ",
            "int y = 2;: x#0",
            "int z = 3;: x#0",
            "y = x;: x#0",
            "int r;: y#0",
            "f(y): y#0",
            "Function start dummy edge: a#0",
            "return a + 1;: a#0",
            "r = return of f: f::__retval__#0",
            "[r != 2]: r#0",
            "reach_error();: ",
        ];
        assert_eq!(got, want, "{got:#?}");
    }
}
