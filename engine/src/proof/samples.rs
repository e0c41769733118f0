//! Candidate invariants guessed from concrete runs, in the manner of dynamic invariant
//! detection (Ernst, Cockrell, Griswold and Notkin, "Dynamically Discovering Likely Program
//! Invariants to Support Program Evolution"; Nguyen, Kapur, Weimer and Forrest, "Using
//! Dynamic Analysis to Discover Polynomial and Array Invariants"): the program runs a fixed
//! number of times on fixed inputs, the values at every loop head are recorded, and the
//! relations that every recorded state satisfies become candidates.
//!
//! A guess is never used unchecked: the candidates go to Houdini ([`crate::proof::houdini`]),
//! which keeps only what is inductive, and a proof still needs the final check. The samples
//! only choose which relations are worth a query, which is what lets the candidates include
//! relations no static domain here expresses: `0 <= 2*n - i <= 1` (a counter that moves every
//! other iteration) and disjunctions such as `i <= 2*k || k < 0` (a bound that holds once the
//! loop has run), whose disjunct comes from the program's own conditions and constant
//! assignments.
//!
//! Deterministic: the inputs are a fixed table and a fixed generator, the runs stop at a
//! fixed number of steps; no clock, no randomness.

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::concrete::{Machine, Oracle};
use crate::invariants::intervals::cmp;
use crate::ir::semantics;
use crate::ir::{BinOp, Expr, ExprKind, IntType, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// The inputs of the runs: each run takes one value of this table for every input (runs
/// `0..VALUES.len()`), the others a deterministic mix of them.
const VALUES: [i128; 20] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 16, 20, -1, -2, -3, -5, -8, -13,
];
/// How many runs, and how many edges each may execute.
const RUNS: u64 = 48;
const STEPS_PER_RUN: usize = 4_000;
/// At most this many states per loop head are kept (the first ones of each run, in turn).
const SAMPLES_PER_HEAD: usize = 400;
/// At most this many variables per loop head take part in relations (the first in the
/// program's order).
const MAX_VARS: usize = 12;
/// At most this many candidates per loop head.
const PER_HEAD: usize = 16;
/// The coefficients of the two-variable terms `a*x + b*y` (each up to sign: `a > 0`).
const COEFFICIENTS: [(i128, i128); 6] = [(1, -1), (1, 1), (1, -2), (1, 2), (2, -1), (2, 1)];

/// One run's inputs: the run number picks them from [`VALUES`].
struct Inputs {
    run: u64,
    count: u64,
}

impl Oracle for Inputs {
    fn value(&mut self, _: usize, _: &Edge, _: VarId, ty: IntType) -> Option<i128> {
        self.count += 1;
        let n = VALUES.len() as u64;
        let pick = if self.run < n {
            self.run
        } else {
            // A fixed linear congruential mix of the run and the input's number.
            let x = (self.run * 2_862_933_555_777_941_757 + self.count * 3_037_000_493)
                .wrapping_mul(6_364_136_223_846_793_005);
            (x >> 33) % n
        };
        let v = VALUES[pick as usize];
        Some(if ty.contains(v) {
            v
        } else if ty.contains(v.abs()) {
            v.abs()
        } else {
            v & 1
        })
    }
}

/// The states recorded at each loop head: the values of its variables (those of
/// [`Samples::vars`] that have one).
pub struct Samples {
    vars: BTreeMap<NodeId, Vec<VarId>>,
    states: BTreeMap<NodeId, Vec<BTreeMap<VarId, i128>>>,
}

/// The variables a relation at a loop head may use: the user's integer scalars of its
/// function and the globals that the function's edges read or write, at most 32 bits wide
/// (relations are stated in `long long`, where they cannot wrap around).
fn head_vars(cfa: &Cfa, head: NodeId) -> Vec<VarId> {
    let f = cfa.node(head).function;
    let mut used = BTreeSet::new();
    for e in cfa.edges.iter().filter(|e| cfa.node(e.from).function == f) {
        crate::invariants::edge_vars(e, &mut |v| {
            used.insert(v);
        });
    }
    used.into_iter()
        .filter(|v| {
            let var = cfa.var(*v);
            !var.synthetic
                && !var.pointer
                && var.ty.bits() <= 32
                && (var.function.is_none() || var.function == Some(f))
                && var
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .take(MAX_VARS)
        .collect()
}

impl Samples {
    /// Runs the program [`RUNS`] times and records the states at its loop heads.
    pub fn collect(cfa: &Cfa) -> Samples {
        let heads: Vec<NodeId> = cfa
            .nodes
            .iter()
            .filter(|n| n.loop_head)
            .map(|n| n.id)
            .collect();
        let vars: BTreeMap<NodeId, Vec<VarId>> =
            heads.iter().map(|h| (*h, head_vars(cfa, *h))).collect();
        let mut states: BTreeMap<NodeId, Vec<BTreeMap<VarId, i128>>> = BTreeMap::new();
        if heads.is_empty() {
            return Samples { vars, states };
        }
        let per_run = (SAMPLES_PER_HEAD / RUNS as usize).max(1);
        for run in 0..RUNS {
            let mut oracle = Inputs { run, count: 0 };
            let mut m = Machine::new(cfa);
            if let Some(first) = cfa.successors(cfa.entry()).next() {
                if m.init_main_params(cfa, &mut oracle, first).is_err() {
                    continue;
                }
            }
            let mut taken: BTreeMap<NodeId, usize> = BTreeMap::new();
            for _ in 0..STEPS_PER_RUN {
                if m.at_error(cfa) {
                    break;
                }
                let edge = match m.enabled_edge(cfa) {
                    Ok(Some(e)) => e,
                    _ => break,
                };
                if m.execute(cfa, edge, &mut oracle).is_err() {
                    break;
                }
                let Some(vs) = vars.get(&m.location) else {
                    continue;
                };
                let t = taken.entry(m.location).or_default();
                if *t >= per_run {
                    continue;
                }
                *t += 1;
                let snap = m.snapshot();
                let state: BTreeMap<VarId, i128> = vs
                    .iter()
                    .filter_map(|v| snap.get(v).map(|x| (*v, *x)))
                    .collect();
                states.entry(m.location).or_default().push(state);
            }
        }
        Samples { vars, states }
    }

    /// The recorded states at `head`.
    pub fn at(&self, head: NodeId) -> &[BTreeMap<VarId, i128>] {
        self.states.get(&head).map_or(&[], Vec::as_slice)
    }

    /// Whether no state recorded at `head` refutes `e`: a state where it reads a variable
    /// the states do not record (a pointer, a wider or a later variable) or is undefined
    /// does not. Vacuously true without states.
    pub fn refuted_nowhere(&self, head: NodeId, e: &Expr) -> bool {
        self.at(head).iter().all(|s| holds(s, e) != Some(false))
    }

    /// The candidates the states at every loop head suggest ([`relations`]), in a fixed order.
    pub fn candidates(&self, cfa: &Cfa) -> BTreeMap<NodeId, Vec<Expr>> {
        let pool = disjuncts(cfa);
        let consts = program_constants(cfa);
        let related = related_pairs(cfa);
        let mut out = BTreeMap::new();
        for (head, vars) in &self.vars {
            let states = self.at(*head);
            if states.len() < 2 {
                continue;
            }
            let mut es = relations(cfa, *head, vars, states, &pool, &consts, &related);
            // At most [`PER_HEAD`] at each loop head: plain bounds before disjunctions, each
            // between variables that one statement relates first.
            es.sort_by_key(|(e, rel)| (matches!(e.kind, ExprKind::Binary(BinOp::LogOr, ..)), !rel));
            let es: Vec<Expr> = es.into_iter().take(PER_HEAD).map(|(e, _)| e).collect();
            if !es.is_empty() {
                out.insert(*head, es);
            }
        }
        out
    }
}

fn holds(state: &BTreeMap<VarId, i128>, e: &Expr) -> Option<bool> {
    semantics::eval(e, &|v| state.get(&v).copied())
        .ok()
        .map(|x| x != 0)
}

/// The conditions a disjunction may add: the program's atomic conditions and `v == c` for
/// every constant a variable is set to (`i == 0`: the loop has not run yet).
fn disjuncts(cfa: &Cfa) -> Vec<Expr> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut push = |e: Expr, out: &mut Vec<Expr>| {
        if seen.insert(format!("{e:?}")) {
            out.push(e);
        }
    };
    for e in &cfa.edges {
        match &e.kind {
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Expr(x),
            }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(Rhs::Expr(x)),
            } => {
                if let Some(c) = x.as_const() {
                    let ty = cfa.var(*lhs).ty;
                    push(
                        cmp(BinOp::Eq, Expr::var(*lhs, ty), Expr::constant(ty, c)),
                        &mut out,
                    );
                }
            }
            EdgeKind::Assume { cond, .. } => {
                for a in atoms(cond) {
                    push(a, &mut out);
                }
            }
            EdgeKind::Call { args, .. } => {
                for a in args.iter().flat_map(atoms) {
                    push(a, &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

/// The comparisons of a condition, through `&&`, `||` and `!`.
fn atoms(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    e.for_each_node(&mut |x| {
        if let ExprKind::Binary(op, _, _) = &x.kind {
            if op.is_comparison() {
                out.push(x.clone());
            }
        }
    });
    out
}

/// The pairs of variables one condition or assignment of the program relates: a disjunction
/// is only proposed over them (`i <= 2*k || k < 0` for the loop `i < 2*k`).
fn related_pairs(cfa: &Cfa) -> BTreeSet<(VarId, VarId)> {
    let mut out = BTreeSet::new();
    for e in &cfa.edges {
        let mut vs = BTreeSet::new();
        crate::invariants::edge_vars(e, &mut |v| {
            vs.insert(v);
        });
        for a in &vs {
            for b in &vs {
                if a < b {
                    out.insert((*a, *b));
                }
            }
        }
    }
    out
}

/// Every constant the program writes, with its neighbours (a bound `x <= n + 1` of a loop
/// that steps by two).
fn program_constants(cfa: &Cfa) -> BTreeSet<i128> {
    let mut out: BTreeSet<i128> = (-2..=2).collect();
    for e in &cfa.edges {
        crate::invariants::edge_exprs(e, &mut |x| {
            x.for_each_const(&mut |c| {
                if c.abs() <= 1 << 20 {
                    out.extend([c - 1, c, c + 1]);
                }
            })
        });
    }
    out
}

/// The candidates at one loop head: for each term `a*x + b*y` over two of its variables,
/// the bounds all states satisfy when the bound is one the program could mean (a small
/// constant or one of its own, [`program_constants`]); where only a disjunction holds, the
/// bound with the first condition of `pool` that covers the states beyond it
/// (`t <= c || q`).
fn relations(
    cfa: &Cfa,
    head: NodeId,
    vars: &[VarId],
    states: &[BTreeMap<VarId, i128>],
    pool: &[Expr],
    consts: &BTreeSet<i128>,
    related: &BTreeSet<(VarId, VarId)>,
) -> Vec<(Expr, bool)> {
    let f = cfa.node(head).function;
    let visible = |e: &Expr| {
        let mut ok = true;
        e.for_each_var(&mut |v| {
            let var = cfa.var(v);
            ok &= var.function.is_none() || var.function == Some(f);
        });
        ok
    };
    // The disjuncts that split the states here: each holds in some and fails in others.
    let splits: Vec<(&Expr, Vec<bool>)> = pool
        .iter()
        .filter(|q| visible(q))
        .filter_map(|q| {
            let truth: Option<Vec<bool>> = states.iter().map(|s| holds(s, q)).collect();
            let truth = truth?;
            (truth.iter().any(|t| *t) && truth.iter().any(|t| !*t)).then_some((q, truth))
        })
        .collect();
    let mut out = Vec::new();
    for (i, &x) in vars.iter().enumerate() {
        for &y in &vars[i + 1..] {
            let Some(pairs) = states
                .iter()
                .map(|s| Some((*s.get(&x)?, *s.get(&y)?)))
                .collect::<Option<Vec<(i128, i128)>>>()
            else {
                continue;
            };
            let rel = related.contains(&(x.min(y), x.max(y)));
            for (a, b) in COEFFICIENTS {
                let values: Vec<i128> = pairs.iter().map(|(u, v)| a * u + b * v).collect();
                let constant = |c: i128| consts.contains(&c);
                for upper in [true, false] {
                    // The bound over a set of states: the largest value for `t <= c`, the
                    // smallest for `t >= c`.
                    let pick = |it: &mut dyn Iterator<Item = i128>| {
                        if upper {
                            it.max()
                        } else {
                            it.min()
                        }
                    };
                    let bound = |which: &dyn Fn(usize) -> bool| -> Option<i128> {
                        pick(&mut (0..values.len()).filter(|k| which(*k)).map(|k| values[k]))
                    };
                    // What the bounds of `x` and `y` alone give (`i + j >= 0` of `i >= 0`
                    // and `j >= 0`): such a bound needs no candidate of its own.
                    let alone = pick(&mut pairs.iter().map(|p| a * p.0))
                        .zip(pick(&mut pairs.iter().map(|p| b * p.1)))
                        .map(|(cx, cy)| cx + cy);
                    let implied =
                        |c: i128| alone.is_some_and(|s| if upper { s <= c } else { s >= c });
                    let op = if upper { BinOp::Le } else { BinOp::Ge };
                    let atom =
                        |c: i128| crate::invariants::linear_bound(cfa, (a, x), (b, y), op, c);
                    let all = bound(&|_| true);
                    if let Some(c) = all.filter(|c| constant(*c)) {
                        if implied(c) {
                            continue;
                        }
                        out.push((atom(c), rel));
                        continue;
                    }
                    if !rel {
                        continue;
                    }
                    // The tightest bound that all states but those of one disjunct satisfy.
                    for (q, truth) in &splits {
                        let Some(rest) = bound(&|k| !truth[k]) else {
                            continue;
                        };
                        let tighter = all.is_none_or(|c| if upper { rest < c } else { rest > c });
                        if tighter && constant(rest) && !implied(rest) {
                            out.push((cmp(BinOp::LogOr, atom(rest), (*q).clone()), rel));
                            break;
                        }
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    fn shown(src: &str) -> Vec<String> {
        let cfa = parse_program("t.c", src).unwrap().cfa;
        let s = Samples::collect(&cfa);
        s.candidates(&cfa)
            .values()
            .flatten()
            .map(|e| e.display(&cfa).to_string())
            .collect()
    }

    #[test]
    fn a_counter_that_moves_every_other_iteration() {
        let c = shown(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int i = 0; int n = 0; int k = __VERIFIER_nondet_int();
  if (!(k <= 1000000 && k >= -1000000)) return 0;
  for (i = 0; i < 2 * k; i++) { if (i % 2 == 0) n++; }
  return k < 0 || n == k; }",
        );
        for expected in [
            "(long long)i - 2 * (long long)n <= 0",
            "(long long)i - 2 * (long long)n >= -1",
            "(long long)i - 2 * (long long)k <= 0 || i == 0",
        ] {
            assert!(c.contains(&expected.to_string()), "{expected} in {c:?}");
        }
        // Implied by the variables' own bounds (`i >= 0`, `n >= 0`): not proposed.
        assert!(
            !c.iter()
                .any(|s| s.starts_with("(long long)i + (long long)n >=")),
            "{c:?}"
        );
    }
}
