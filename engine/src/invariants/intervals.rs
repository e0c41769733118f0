//! An interval analysis (abstract interpretation, Cousot & Cousot) over the locations of one
//! function, used as the auxiliary-invariant generator of k-induction (the unifying-view
//! paper's Alg. 3 uses a data-flow analysis over intervals). Sound: every value an execution
//! can have at a location lies in the computed interval. Calls are summarised soundly: the
//! callee may change every global and the assigned variable arbitrarily. Widening at loop heads
//! jumps to the type's bounds; two narrowing rounds recover bounds from loop conditions.

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::invariants::fixpoint::{self, Domain};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntType, UnOp, VarId};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: i128,
    pub hi: i128,
}

impl Interval {
    pub fn of_type(t: IntType) -> Interval {
        Interval {
            lo: t.min_value(),
            hi: t.max_value(),
        }
    }

    pub fn point(v: i128) -> Interval {
        Interval { lo: v, hi: v }
    }

    fn join(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// Widening of `self` by `new`: a bound that `new` passes jumps to the type's bound.
    fn widen(self, new: Interval, t: IntType) -> Interval {
        let full = Interval::of_type(t);
        Interval {
            lo: if new.lo < self.lo { full.lo } else { self.lo },
            hi: if new.hi > self.hi { full.hi } else { self.hi },
        }
    }

    /// Whether it excludes some value of type `t`.
    pub fn narrower_than(self, t: IntType) -> bool {
        let full = Interval::of_type(t);
        self.lo > full.lo || self.hi < full.hi
    }

    fn meet(self, o: Interval) -> Option<Interval> {
        let r = Interval {
            lo: self.lo.max(o.lo),
            hi: self.hi.min(o.hi),
        };
        (r.lo <= r.hi).then_some(r)
    }

    /// The value range after conversion to `t`: unchanged if it fits, else the whole type
    /// (wrap-around can produce any value).
    pub fn convert(self, t: IntType) -> Interval {
        if t.contains(self.lo) && t.contains(self.hi) {
            self
        } else if t.kind == crate::ir::IntKind::Bool {
            Interval { lo: 0, hi: 1 }
        } else {
            Interval::of_type(t)
        }
    }
}

/// An abstract state: intervals of the tracked variables (absent: the type's whole range).
pub type Env = BTreeMap<VarId, Interval>;

pub struct IntervalAnalysis<'c> {
    cfa: &'c Cfa,
    /// `None`: unreachable.
    pub at: BTreeMap<NodeId, Env>,
    /// Return values of callees assumed at their calls (absent: anything; `None`: the callee
    /// never returns), as [`return_intervals`] computes them.
    returns: Option<&'c Returns>,
    calls: crate::invariants::CallEffects,
}

/// The return values of functions by interval (`None`: no call returns).
pub type Returns = BTreeMap<FuncId, Option<Interval>>;

fn get(cfa: &Cfa, env: &Env, v: VarId) -> Interval {
    env.get(&v)
        .copied()
        .unwrap_or_else(|| Interval::of_type(cfa.var(v).ty))
}

pub(crate) fn eval(cfa: &Cfa, env: &Env, e: &Expr) -> Interval {
    let full = Interval::of_type(e.ty);
    let r = match &e.kind {
        ExprKind::Const(v) => Interval::point(*v),
        ExprKind::Var(v) => get(cfa, env, *v),
        ExprKind::Cast { operand, .. } => eval(cfa, env, operand),
        ExprKind::Ite(_, a, b) => eval(cfa, env, a).join(eval(cfa, env, b)),
        ExprKind::Unary(UnOp::Neg, a) => {
            let x = eval(cfa, env, a);
            Interval {
                lo: -x.hi,
                hi: -x.lo,
            }
        }
        ExprKind::Unary(UnOp::BitNot, a) => {
            let x = eval(cfa, env, a);
            Interval {
                lo: -x.hi - 1,
                hi: -x.lo - 1,
            }
        }
        ExprKind::Unary(UnOp::LogNot, _) => Interval { lo: 0, hi: 1 },
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval(cfa, env, a), eval(cfa, env, b));
            match op {
                BinOp::Add => Interval {
                    lo: x.lo + y.lo,
                    hi: x.hi + y.hi,
                },
                BinOp::Sub => Interval {
                    lo: x.lo - y.hi,
                    hi: x.hi - y.lo,
                },
                BinOp::Mul => {
                    let ps = [
                        x.lo.checked_mul(y.lo),
                        x.lo.checked_mul(y.hi),
                        x.hi.checked_mul(y.lo),
                        x.hi.checked_mul(y.hi),
                    ];
                    if ps.iter().all(Option::is_some) {
                        let ps: Vec<i128> = ps.into_iter().flatten().collect();
                        Interval {
                            lo: *ps.iter().min().unwrap_or(&0),
                            hi: *ps.iter().max().unwrap_or(&0),
                        }
                    } else {
                        full
                    }
                }
                BinOp::BitAnd if y.lo >= 0 && x.lo >= 0 => Interval {
                    lo: 0,
                    hi: x.hi.min(y.hi),
                },
                BinOp::BitAnd if y.lo >= 0 => Interval { lo: 0, hi: y.hi },
                BinOp::Rem if y.lo > 0 && x.lo >= 0 => Interval {
                    lo: 0,
                    hi: (y.hi - 1).min(x.hi),
                },
                BinOp::Div if y.lo > 0 && x.lo >= 0 => Interval {
                    lo: x.lo / y.hi,
                    hi: x.hi / y.lo,
                },
                BinOp::Shr if x.lo >= 0 && y.lo >= 0 => Interval { lo: 0, hi: x.hi },
                op if op.is_comparison() || op.is_logical() => Interval { lo: 0, hi: 1 },
                _ => full,
            }
        }
    };
    r.convert(e.ty)
}

/// Narrows `env` under the assumption that `cond` has truth value `truth`. Returns `None`
/// when the assumption is impossible.
pub(crate) fn assume(cfa: &Cfa, env: &Env, cond: &Expr, truth: bool) -> Option<Env> {
    match &cond.kind {
        ExprKind::Unary(UnOp::LogNot, a) => assume(cfa, env, a, !truth),
        ExprKind::Binary(BinOp::LogAnd, a, b) if truth => {
            assume(cfa, &assume(cfa, env, a, true)?, b, true)
        }
        ExprKind::Binary(BinOp::LogOr, a, b) if !truth => {
            assume(cfa, &assume(cfa, env, a, false)?, b, false)
        }
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            let op = if truth { *op } else { negate(*op) };
            let mut out = env.clone();
            // Refine a variable compared with anything (possibly under a value-preserving cast).
            for (x, y, o) in [(a, b, op), (b, a, flip(op))] {
                if let Some(v) = plain_var(x) {
                    let yi = eval(cfa, &out, y);
                    let vi = get(cfa, &out, v);
                    let bound = match o {
                        BinOp::Lt => Interval {
                            lo: i128::MIN / 4,
                            hi: yi.hi - 1,
                        },
                        BinOp::Le => Interval {
                            lo: i128::MIN / 4,
                            hi: yi.hi,
                        },
                        BinOp::Gt => Interval {
                            lo: yi.lo + 1,
                            hi: i128::MAX / 4,
                        },
                        BinOp::Ge => Interval {
                            lo: yi.lo,
                            hi: i128::MAX / 4,
                        },
                        BinOp::Eq => yi,
                        _ => Interval {
                            lo: i128::MIN / 4,
                            hi: i128::MAX / 4,
                        },
                    };
                    out.insert(v, vi.meet(bound)?);
                }
            }
            // Both constant-free sides: check emptiness of the comparison itself.
            let (xi, yi) = (eval(cfa, &out, a), eval(cfa, &out, b));
            let possible = match op {
                BinOp::Lt => xi.lo < yi.hi,
                BinOp::Le => xi.lo <= yi.hi,
                BinOp::Gt => xi.hi > yi.lo,
                BinOp::Ge => xi.hi >= yi.lo,
                BinOp::Eq => xi.meet(yi).is_some(),
                _ => !(xi.lo == xi.hi && yi.lo == yi.hi && xi.lo == yi.lo),
            };
            possible.then_some(out)
        }
        _ => {
            let v = eval(cfa, env, cond);
            let possible = if truth {
                !(v.lo == 0 && v.hi == 0)
            } else {
                v.lo <= 0 && 0 <= v.hi
            };
            possible.then(|| env.clone())
        }
    }
}

/// A variable, possibly under casts that preserve its value (widening casts).
pub(crate) fn plain_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast { operand, .. }
            if e.ty.min_value() <= operand.ty.min_value()
                && operand.ty.max_value() <= e.ty.max_value() =>
        {
            plain_var(operand)
        }
        _ => None,
    }
}

/// The comparison that holds exactly where `op` does not.
pub(crate) fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        _ => BinOp::Eq,
    }
}

fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        o => o,
    }
}

fn join_env(cfa: &Cfa, a: &Env, b: &Env) -> Env {
    let keys: BTreeSet<VarId> = a.keys().chain(b.keys()).copied().collect();
    keys.into_iter()
        .map(|v| (v, get(cfa, a, v).join(get(cfa, b, v))))
        .collect()
}

fn widen(cfa: &Cfa, old: &Env, new: &Env) -> Env {
    let keys: BTreeSet<VarId> = old.keys().chain(new.keys()).copied().collect();
    keys.into_iter()
        .map(|v| {
            let (o, n) = (get(cfa, old, v), get(cfa, new, v));
            (v, o.widen(n, cfa.var(v).ty))
        })
        .collect()
}

impl<'c> IntervalAnalysis<'c> {
    /// Analyses `function` from its entry with every variable unconstrained except globals
    /// initialised on the way (main's prologue declares them).
    pub fn run(cfa: &'c Cfa, function: FuncId) -> IntervalAnalysis<'c> {
        IntervalAnalysis::run_with(cfa, function, None)
    }

    /// [`IntervalAnalysis::run`], with the callees' return values of `returns` at calls.
    fn run_with(
        cfa: &'c Cfa,
        function: FuncId,
        returns: Option<&'c Returns>,
    ) -> IntervalAnalysis<'c> {
        let mut a = IntervalAnalysis {
            cfa,
            at: BTreeMap::new(),
            returns,
            calls: crate::invariants::CallEffects::of(cfa),
        };
        let domain = Domain {
            post: &|env: &Env, e: &Edge| a.post(env, e),
            join: &|x: &Env, y: &Env| join_env(cfa, x, y),
            widen: &|old: &Env, new: &Env| widen(cfa, old, new),
            normalize: &|_: &mut Env| true,
        };
        let at = fixpoint::solve(cfa, function, Env::new(), &domain, 2);
        a.at = at;
        a
    }

    fn post(&self, env: &Env, edge: &crate::cfa::Edge) -> Option<(NodeId, Env)> {
        let cfa = self.cfa;
        let mut out = env.clone();
        let target = match &edge.kind {
            EdgeKind::Assume { cond, truth } => {
                return assume(cfa, env, cond, *truth).map(|e| (edge.to, e))
            }
            EdgeKind::Assign { lhs, rhs }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(rhs),
            } => {
                let ty = cfa.var(*lhs).ty;
                let v = match rhs {
                    Rhs::Expr(e) => eval(cfa, env, e).convert(ty),
                    Rhs::Nondet { .. } => Interval::of_type(ty),
                };
                out.insert(*lhs, v);
                edge.to
            }
            EdgeKind::Declare { var, init: None } => {
                out.remove(var);
                edge.to
            }
            EdgeKind::Call { return_site, .. } => {
                // The callee may write any global and anything in memory; the return edge
                // writes the result variable (any value, or one of the callee's return values
                // where they are known).
                out.retain(|v, _| !self.calls.may_write(cfa, *v));
                let callee = cfa.node(edge.to).function;
                let returned = match self.returns.and_then(|r| r.get(&callee)) {
                    Some(None) => return None,
                    Some(Some(i)) => Some(*i),
                    None => None,
                };
                for e in cfa.successors(cfa.function(callee).exit) {
                    if let EdgeKind::Return {
                        assign: Some(x), ..
                    } = &e.kind
                    {
                        if e.to == *return_site {
                            match returned {
                                Some(i) => out.insert(*x, i.convert(cfa.var(*x).ty)),
                                None => out.remove(x),
                            };
                        }
                    }
                }
                *return_site
            }
            EdgeKind::Return { .. } | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => return None,
            EdgeKind::ReturnValue {
                function,
                value: Some(e),
            } => {
                if let Some((ty, retval)) = cfa.function(*function).ret {
                    out.insert(retval, eval(cfa, env, e).convert(ty));
                }
                edge.to
            }
            EdgeKind::ReturnValue { .. } | EdgeKind::Blank(_) => edge.to,
        };
        Some((target, out))
    }

    /// The invariant at `l` as a C condition over the variables with a non-trivial interval.
    pub fn invariant(&self, l: NodeId) -> Option<Expr> {
        let env = self.at.get(&l)?;
        conj(
            env.iter()
                .flat_map(|(v, i)| bounds(&Expr::var(*v, self.cfa.var(*v).ty), *i)),
        )
    }
}

/// `x >= lo` and `x <= hi`, for the bounds of `i` that exclude values of `x`'s type.
fn bounds(x: &Expr, i: Interval) -> Vec<Expr> {
    let full = Interval::of_type(x.ty);
    let mut parts = Vec::new();
    if i.lo > full.lo {
        parts.push(cmp(BinOp::Ge, x.clone(), Expr::constant(x.ty, i.lo)));
    }
    if i.hi < full.hi {
        parts.push(cmp(BinOp::Le, x.clone(), Expr::constant(x.ty, i.hi)));
    }
    parts
}

/// The conjunction of `parts`, left to right (`None`: no part).
/// The conjunction `a && b && ...` of C conditions (`None`: no parts).
pub(crate) fn conj(parts: impl IntoIterator<Item = Expr>) -> Option<Expr> {
    parts.into_iter().reduce(|a, b| cmp(BinOp::LogAnd, a, b))
}

/// `lo <= x && x <= hi` over the bounds of `i` that say something for `x`'s type (`None`:
/// none).
pub fn within(x: Expr, i: Interval) -> Option<Expr> {
    conj(bounds(&x, i))
}

/// `a op b` as a C condition (type `int`), operands as they are.
pub(crate) fn cmp(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
    }
}

/// Most rounds of [`return_intervals`]; after [`WIDEN_AFTER`] rounds a bound that still moves
/// jumps to the type's bound.
const MAX_ROUNDS: usize = 12;
const WIDEN_AFTER: usize = 4;

/// The values each function with a return value can return, as intervals: a Kleene
/// iteration from "no call returns" over the analyses of every function (each from its entry
/// with any arguments and globals, its calls returning what the previous round found), with
/// widening, so recursive functions get bounds too. Empty when it does not stabilise within
/// [`MAX_ROUNDS`]. The result is a candidate: its users check it with the solver
/// ([`crate::proof::contracts`]).
pub fn return_intervals(cfa: &Cfa) -> BTreeMap<FuncId, Interval> {
    let with_ret: Vec<&crate::cfa::Function> =
        cfa.functions.iter().filter(|f| f.ret.is_some()).collect();
    let mut cur: Returns = with_ret.iter().map(|f| (f.id, None)).collect();
    for round in 0..MAX_ROUNDS {
        let mut next = Returns::new();
        for f in &with_ret {
            let Some((ty, retval)) = f.ret else { continue };
            let a = IntervalAnalysis::run_with(cfa, f.id, Some(&cur));
            let r =
                a.at.get(&f.exit)
                    .map(|env| get(cfa, env, retval).convert(ty));
            let r = match (cur.get(&f.id).copied().flatten(), r) {
                (Some(old), Some(new)) if round >= WIDEN_AFTER => Some(old.widen(new, ty)),
                (Some(old), Some(new)) => Some(old.join(new)),
                (_, r) => r,
            };
            next.insert(f.id, r);
        }
        if next == cur {
            return cur.into_iter().filter_map(|(f, i)| Some((f, i?))).collect();
        }
        cur = next;
    }
    BTreeMap::new()
}

/// The interval invariants at the loop heads of `main`, for correctness witnesses (BMC and
/// k-induction have no other invariants to give).
pub fn loop_invariants(cfa: &Cfa) -> Vec<crate::invariants::LocationInvariant> {
    let intervals = IntervalAnalysis::run(cfa, cfa.main);
    cfa.nodes
        .iter()
        .filter(|n| n.loop_head && n.function == cfa.main)
        .filter_map(|n| {
            Some(crate::invariants::LocationInvariant::c(
                n.id,
                intervals.invariant(n.id)?,
            ))
        })
        .collect()
}
