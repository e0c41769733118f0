//! An octagon analysis (Miné, "The octagon abstract domain", Higher-Order and Symbolic
//! Computation 19, 2006) over the locations of one function: constraints `±x ± y <= c`
//! between the function's variables and the globals, so relations such as `k - i == 0` or
//! `l - k <= 999998` that the interval analysis ([`crate::invariants::intervals`]) cannot state.
//! k-induction uses its loop-head invariants as a proof of their own when the correctness
//! check finds them 1-inductive and sufficient ([`crate::algorithm::kinduction`]): the check,
//! with the solver and the program's exact semantics, is what makes a TRUE; the analysis only
//! proposes.
//!
//! Sound for C's wrap-around semantics: an assignment or a comparison is read as a relation
//! only where the octagon shows that none of its operations leaves its type's range; otherwise
//! the assigned variable gets the interval of the value ([`crate::invariants::intervals::eval`], which
//! knows wrap-around) and loses its relations. Calls are summarised as by the interval
//! analysis (the callee may write every global). Widening at loop heads after two visits sends
//! every growing bound to infinity; two narrowing rounds recover bounds from loop conditions.
//!
//! Representation (the paper's): variable `x_k` has the two forms `v_{2k} = x_k` and
//! `v_{2k+1} = -x_k`; entry `(i, j)` of the difference-bound matrix bounds `v_j - v_i`.

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::invariants::fixpoint::{self, Domain};
use crate::invariants::intervals::{self, cmp, Env, Interval};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntType, UnOp, VarId};
use std::collections::BTreeMap;

/// No bound.
const INF: i128 = i128::MAX / 8;

/// Most variables tracked in one function (the closure is cubic in their number).
pub const MAX_VARS: usize = 32;

fn plus(a: i128, b: i128) -> i128 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF)
    }
}

/// A difference-bound matrix over `n` variables (`2n` forms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Octagon {
    n: usize,
    m: Vec<i128>,
}

/// `s·x + c` with `s` = ±1 over the variable of index `x`, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Form {
    var: Option<(i128, usize)>,
    c: i128,
}

impl Octagon {
    fn top(n: usize) -> Octagon {
        let d = 2 * n;
        let mut m = vec![INF; d * d];
        for i in 0..d {
            m[i * d + i] = 0;
        }
        Octagon { n, m }
    }

    fn at(&self, i: usize, j: usize) -> i128 {
        self.m[i * 2 * self.n + j]
    }

    fn put(&mut self, i: usize, j: usize, c: i128) {
        let d = 2 * self.n;
        self.m[i * d + j] = c;
    }

    /// Adds `v_j - v_i <= c` (and its coherent twin `v_ī - v_j̄ <= c`).
    fn constrain(&mut self, i: usize, j: usize, c: i128) {
        if c < self.at(i, j) {
            self.put(i, j, c);
        }
        if c < self.at(j ^ 1, i ^ 1) {
            self.put(j ^ 1, i ^ 1, c);
        }
    }

    /// Adds `s1·x_a + s2·x_b <= c` (`a == b` allowed).
    fn add_pair(&mut self, (s1, a): (i128, usize), (s2, b): (i128, usize), c: i128) {
        let idx = |s: i128, k: usize| if s > 0 { 2 * k } else { 2 * k + 1 };
        // v_p - v_q <= c with v_p = s1·x_a and v_q = -s2·x_b.
        self.constrain(idx(-s2, b), idx(s1, a), c);
    }

    /// Adds `s·x_a <= c`.
    fn add_unary(&mut self, (s, a): (i128, usize), c: i128) {
        self.add_pair((s, a), (s, a), 2 * c);
    }

    /// The bounds of `x_k` (`INF` when unbounded).
    fn bounds(&self, k: usize) -> (i128, i128) {
        let hi = self.at(2 * k + 1, 2 * k);
        let lo = self.at(2 * k, 2 * k + 1);
        (
            if lo >= INF { -INF } else { -(lo.div_euclid(2)) },
            if hi >= INF { INF } else { hi.div_euclid(2) },
        )
    }

    /// Strong closure with integer tightening; `false` when the octagon is empty.
    fn close(&mut self) -> bool {
        let d = 2 * self.n;
        // Row k as it is during step k: the step changes row and column k only through a
        // negative m[k][k], and then the octagon is empty (a diagonal entry never grows), which
        // the answer says whatever the rest of the matrix holds.
        let mut row_k = vec![INF; d];
        for k in 0..d {
            row_k.copy_from_slice(&self.m[k * d..(k + 1) * d]);
            for i in 0..d {
                let ik = self.m[i * d + k];
                if ik >= INF {
                    continue;
                }
                for (ij, &kj) in self.m[i * d..(i + 1) * d].iter_mut().zip(&row_k) {
                    // plus(ik, kj): INF when kj is, and a sum of at least INF (which plus
                    // caps at INF) is never below m[i][j] <= INF either.
                    if kj < INF && ik + kj < *ij {
                        *ij = ik + kj;
                    }
                }
            }
            // A negative cycle: empty. Stopping at the first one also keeps every entry the
            // weight of a path without a repeated form (no doubling through a cycle, no
            // overflow).
            if (0..d).any(|i| self.m[i * d + i] < 0) {
                return false;
            }
        }
        self.tighten()
    }

    /// After the shortest paths: integer tightening of the unary bounds, then strengthening
    /// through them; `false` when the octagon is empty.
    fn tighten(&mut self) -> bool {
        let d = 2 * self.n;
        for i in 0..d {
            if self.at(i, i) < 0 {
                return false;
            }
            let v = self.at(i, i ^ 1);
            if v < INF {
                // -2·v_i is even.
                self.put(i, i ^ 1, v.div_euclid(2) * 2);
            }
        }
        for i in 0..d {
            for j in 0..d {
                let s = plus(self.at(i, i ^ 1), self.at(j ^ 1, j));
                if s < INF && s.div_euclid(2) < self.at(i, j) {
                    self.put(i, j, s.div_euclid(2));
                }
            }
        }
        (0..d).all(|i| self.at(i, i) >= 0)
    }

    /// Drops every constraint on `x_k` (the octagon must be closed, so that the others keep
    /// what they implied through it).
    fn forget(&mut self, k: usize) {
        let d = 2 * self.n;
        for j in 0..d {
            for i in [2 * k, 2 * k + 1] {
                if i != j {
                    self.put(i, j, INF);
                    self.put(j, i, INF);
                }
            }
        }
    }

    fn join(&self, o: &Octagon) -> Octagon {
        Octagon {
            n: self.n,
            m: self.m.iter().zip(&o.m).map(|(a, b)| *a.max(b)).collect(),
        }
    }

    /// Every bound that grew goes to infinity.
    fn widen(&self, new: &Octagon) -> Octagon {
        Octagon {
            n: self.n,
            m: self
                .m
                .iter()
                .zip(&new.m)
                .map(|(o, n)| if n > o { INF } else { *o })
                .collect(),
        }
    }
}

/// The variables the analysis of `function` tracks: its locals and the globals its edges
/// mention, in order of first mention, at most [`MAX_VARS`].
fn tracked_vars(cfa: &Cfa, function: FuncId) -> Vec<VarId> {
    let mut vars = Vec::new();
    for e in cfa
        .edges
        .iter()
        .filter(|e| cfa.node(e.from).function == function)
    {
        let mut note = |v: VarId| {
            let var = cfa.var(v);
            if (var.function.is_none() || var.function == Some(function))
                && !vars.contains(&v)
                && vars.len() < MAX_VARS
            {
                vars.push(v);
            }
        };
        super::edge_vars(e, &mut note);
    }
    vars
}

/// The analysis of one function.
pub struct OctagonAnalysis<'c> {
    cfa: &'c Cfa,
    /// The tracked variables, by index.
    vars: Vec<VarId>,
    index: BTreeMap<VarId, usize>,
    /// Closed octagons of the reachable locations (widened ones at loop heads).
    pub at: BTreeMap<NodeId, Octagon>,
    calls: crate::invariants::CallEffects,
}

impl<'c> OctagonAnalysis<'c> {
    /// Analyses `function` from its entry, every variable anywhere in its type's range.
    pub fn run(cfa: &'c Cfa, function: FuncId) -> OctagonAnalysis<'c> {
        let vars = tracked_vars(cfa, function);
        let index = vars.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let mut a = OctagonAnalysis {
            cfa,
            vars,
            index,
            at: BTreeMap::new(),
            calls: crate::invariants::CallEffects::of(cfa),
        };
        let domain = Domain {
            post: &|o: &Octagon, e: &Edge| a.post(o, e),
            join: &|x: &Octagon, y: &Octagon| x.join(y),
            widen: &|old: &Octagon, new: &Octagon| old.widen(new),
            normalize: &|o: &mut Octagon| o.close(),
        };
        let at = fixpoint::solve(cfa, function, a.start(), &domain, 2);
        a.at = at;
        a
    }

    /// Every tracked variable within its type's range.
    fn start(&self) -> Octagon {
        let mut o = Octagon::top(self.vars.len());
        for k in 0..self.vars.len() {
            self.type_range(&mut o, k);
        }
        o.close();
        o
    }

    fn type_range(&self, o: &mut Octagon, k: usize) {
        let t = self.cfa.var(self.vars[k]).ty;
        o.add_unary((1, k), t.max_value());
        o.add_unary((-1, k), -t.min_value());
    }

    /// The intervals of the tracked variables.
    fn env(&self, o: &Octagon) -> Env {
        let mut env = Env::new();
        for (k, v) in self.vars.iter().enumerate() {
            let (lo, hi) = o.bounds(k);
            let full = Interval::of_type(self.cfa.var(*v).ty);
            env.insert(
                *v,
                Interval {
                    lo: lo.max(full.lo),
                    hi: hi.min(full.hi),
                },
            );
        }
        env
    }

    /// The range of a form's value.
    fn range(&self, o: &Octagon, f: Form) -> (i128, i128) {
        match f.var {
            None => (f.c, f.c),
            Some((s, k)) => {
                let (lo, hi) = o.bounds(k);
                let t = Interval::of_type(self.cfa.var(self.vars[k]).ty);
                let (lo, hi) = (lo.max(t.lo), hi.min(t.hi));
                if s > 0 {
                    (lo + f.c, hi + f.c)
                } else {
                    (f.c - hi, f.c - lo)
                }
            }
        }
    }

    fn fits(&self, o: &Octagon, f: Form, ty: IntType) -> bool {
        let (lo, hi) = self.range(o, f);
        ty.contains(lo) && ty.contains(hi)
    }

    /// `e` as `±x + c` when its C value is exactly that in every state of `o` (no operation
    /// wraps around).
    fn form(&self, o: &Octagon, e: &Expr) -> Option<Form> {
        let f = match &e.kind {
            ExprKind::Const(v) => Form { var: None, c: *v },
            ExprKind::Var(v) => Form {
                var: Some((1, *self.index.get(v)?)),
                c: 0,
            },
            ExprKind::Cast { operand, .. } => self.form(o, operand)?,
            ExprKind::Unary(UnOp::Neg, a) => {
                let f = self.form(o, a)?;
                Form {
                    var: f.var.map(|(s, k)| (-s, k)),
                    c: -f.c,
                }
            }
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (fa, fb) = (self.form(o, a)?, self.form(o, b)?);
                let sign = if *op == BinOp::Add { 1 } else { -1 };
                let var = match (fa.var, fb.var) {
                    (v, None) => v,
                    (None, Some((s, k))) => Some((sign * s, k)),
                    _ => return None,
                };
                Form {
                    var,
                    c: fa.c + sign * fb.c,
                }
            }
            _ => return None,
        };
        self.fits(o, f, e.ty).then_some(f)
    }

    /// `o` with `x = e` (`None`: a nondeterministic value).
    fn assign(&self, o: &Octagon, x: VarId, e: Option<&Expr>) -> Octagon {
        let mut out = o.clone();
        let Some(&k) = self.index.get(&x) else {
            return out;
        };
        let ty = self.cfa.var(x).ty;
        let exact = e
            .and_then(|e| self.form(o, e))
            .filter(|f| self.fits(o, *f, ty));
        match exact {
            Some(Form {
                var: Some((1, j)),
                c,
            }) if j == k => {
                // x = x + c: every bound on v_{2k} moves by c, on v_{2k+1} by -c.
                let d = 2 * o.n;
                let off = |i: usize| match i {
                    i if i == 2 * k => c,
                    i if i == 2 * k + 1 => -c,
                    _ => 0,
                };
                for i in 0..d {
                    for j in 0..d {
                        let v = o.at(i, j);
                        if v < INF {
                            out.put(i, j, v + off(j) - off(i));
                        }
                    }
                }
            }
            Some(Form {
                var: Some((s, j)),
                c,
            }) if j != k => {
                out.forget(k);
                // x - s·y == c.
                out.add_pair((1, k), (-s, j), c);
                out.add_pair((-1, k), (s, j), -c);
                self.type_range(&mut out, k);
            }
            Some(Form { var: None, c }) => {
                out.forget(k);
                out.add_unary((1, k), c);
                out.add_unary((-1, k), -c);
            }
            _ => {
                let v = match e {
                    Some(e) => intervals::eval(self.cfa, &self.env(o), e).convert(ty),
                    None => Interval::of_type(ty),
                };
                out.forget(k);
                out.add_unary((1, k), v.hi);
                out.add_unary((-1, k), -v.lo);
            }
        }
        if !out.close() {
            // Not reached: an assignment keeps a non-empty octagon non-empty.
            return o.clone();
        }
        out
    }

    fn forget(&self, o: &mut Octagon, v: VarId) {
        if let Some(&k) = self.index.get(&v) {
            o.forget(k);
            self.type_range(o, k);
        }
    }

    /// `o` under the assumption that `cond` has truth value `truth` (`None`: impossible).
    fn assume(&self, o: &Octagon, cond: &Expr, truth: bool) -> Option<Octagon> {
        // The interval analysis' narrowing first (it detects more impossible conditions).
        let env = intervals::assume(self.cfa, &self.env(o), cond, truth)?;
        let mut out = o.clone();
        for (v, i) in &env {
            if let Some(&k) = self.index.get(v) {
                out.add_unary((1, k), i.hi);
                out.add_unary((-1, k), -i.lo);
            }
        }
        if !out.close() {
            return None;
        }
        self.relate(&mut out, cond, truth);
        out.close().then_some(out)
    }

    /// Adds the relations `cond` (with truth value `truth`) states between two variables.
    fn relate(&self, o: &mut Octagon, cond: &Expr, truth: bool) {
        match &cond.kind {
            ExprKind::Unary(UnOp::LogNot, a) => self.relate(o, a, !truth),
            ExprKind::Binary(BinOp::LogAnd, a, b) if truth => {
                self.relate(o, a, true);
                self.relate(o, b, true);
            }
            ExprKind::Binary(BinOp::LogOr, a, b) if !truth => {
                self.relate(o, a, false);
                self.relate(o, b, false);
            }
            ExprKind::Binary(op, a, b) if op.is_comparison() => {
                let (Some(fa), Some(fb)) = (self.form(o, a), self.form(o, b)) else {
                    return;
                };
                let op = if truth { *op } else { intervals::negate(*op) };
                // fa - fb <= bound, as s1·x + s2·y <= c.
                let mut le = |p: Form, q: Form, bound: i128| {
                    let c = bound - p.c + q.c;
                    let neg = q.var.map(|(s, k)| (-s, k));
                    match (p.var, neg) {
                        (Some(x), Some(y)) => o.add_pair(x, y, c),
                        (Some(x), None) | (None, Some(x)) => o.add_unary(x, c),
                        // Two constants: the interval analysis decided it already.
                        (None, None) => {}
                    }
                };
                match op {
                    BinOp::Lt => le(fa, fb, -1),
                    BinOp::Le => le(fa, fb, 0),
                    BinOp::Gt => le(fb, fa, -1),
                    BinOp::Ge => le(fb, fa, 0),
                    BinOp::Eq => {
                        le(fa, fb, 0);
                        le(fb, fa, 0);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn post(&self, o: &Octagon, edge: &Edge) -> Option<(NodeId, Octagon)> {
        let cfa = self.cfa;
        let out = match &edge.kind {
            EdgeKind::Assume { cond, truth } => self.assume(o, cond, *truth)?,
            EdgeKind::Assign { lhs, rhs }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(rhs),
            } => match rhs {
                Rhs::Expr(e) => self.assign(o, *lhs, Some(e)),
                Rhs::Nondet { .. } => self.assign(o, *lhs, None),
            },
            EdgeKind::Declare { var, init: None } => self.assign(o, *var, None),
            EdgeKind::Call { return_site, .. } => {
                // The callee may write any global and anything in memory; the return edge
                // writes the result variable.
                let mut out = o.clone();
                for v in &self.vars {
                    if self.calls.may_write(cfa, *v) {
                        self.forget(&mut out, *v);
                    }
                }
                for e in cfa.successors(cfa.function(cfa.node(edge.to).function).exit) {
                    if let EdgeKind::Return {
                        assign: Some(x), ..
                    } = &e.kind
                    {
                        if e.to == *return_site {
                            self.forget(&mut out, *x);
                        }
                    }
                }
                return out.close().then_some((*return_site, out));
            }
            EdgeKind::ReturnValue { function, .. } => {
                let mut out = o.clone();
                if let Some((_, rv)) = cfa.function(*function).ret {
                    self.forget(&mut out, rv);
                }
                out
            }
            EdgeKind::Return { .. } | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => return None,
            EdgeKind::Blank(_) => o.clone(),
        };
        Some((edge.to, out))
    }

    /// The bounds of variable `k` in `o`, within its type's range.
    fn bounds(&self, o: &Octagon, k: usize) -> (i128, i128) {
        let (lo, hi) = o.bounds(k);
        let t = self.cfa.var(self.vars[k]).ty;
        (lo.max(t.min_value()), hi.min(t.max_value()))
    }

    /// The invariant at `l` as a C condition: the variables' bounds tighter than their types',
    /// and the relations between two variables of at most 32 bits that the bounds do not
    /// imply (stated in `long long`, where they cannot wrap around). `None`: unreachable or
    /// nothing to say.
    pub fn invariant(&self, l: NodeId) -> Option<Expr> {
        let o = self.at.get(&l)?;
        let cfa = self.cfa;
        let mut parts: Vec<Expr> = Vec::new();
        let var = |k: usize| Expr::var(self.vars[k], cfa.var(self.vars[k]).ty);
        let bounds: Vec<(i128, i128)> = (0..self.vars.len()).map(|k| self.bounds(o, k)).collect();
        for (k, (lo, hi)) in bounds.iter().enumerate() {
            let t = cfa.var(self.vars[k]).ty;
            if *lo > t.min_value() {
                parts.push(cmp(BinOp::Ge, var(k), Expr::constant(t, *lo)));
            }
            if *hi < t.max_value() {
                parts.push(cmp(BinOp::Le, var(k), Expr::constant(t, *hi)));
            }
        }
        let small = |k: usize| cfa.var(self.vars[k]).ty.bits() <= 32;
        for a in 0..self.vars.len() {
            for b in a + 1..self.vars.len() {
                if !small(a) || !small(b) {
                    continue;
                }
                for (s1, s2) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    // s1·x_a + s2·x_b <= c: v_p - v_q with p = (s1, a), q = (-s2, b).
                    let p = if s1 > 0 { 2 * a } else { 2 * a + 1 };
                    let q = if s2 > 0 { 2 * b + 1 } else { 2 * b };
                    let c = o.at(q, p);
                    if c >= INF {
                        continue;
                    }
                    let max = |s: i128, (lo, hi): (i128, i128)| if s > 0 { hi } else { -lo };
                    if max(s1, bounds[a]) + max(s2, bounds[b]) <= c {
                        continue; // implied by the bounds
                    }
                    parts.push(crate::invariants::linear_bound(
                        cfa,
                        (s1, self.vars[a]),
                        (s2, self.vars[b]),
                        BinOp::Le,
                        c,
                    ));
                }
            }
        }
        parts.into_iter().reduce(|a, b| Expr {
            ty: IntType::INT,
            kind: ExprKind::Binary(BinOp::LogAnd, Box::new(a), Box::new(b)),
        })
    }
}

/// At most this much work (the sum over functions of edges times tracked variables cubed,
/// the closure's cost per edge) for [`ranges`], which the playground computes with every CFA
/// it shows: about 0.1 s natively. Larger programs get no ranges (their formulas keep
/// `wrap32`). Measured on the repository's programs: test_locks_14 (236 edges, 30
/// variables) took 0.5 s, array_2-1-simple (6,170 edges) 7.6 s; the gallery's examples stay
/// far below.
const RANGES_WORK: u64 = 1_000_000;

/// The ranges of the variables at every reachable location of every function (each
/// analysed from its entry with any arguments, so they hold in every calling context), from
/// the closed octagons: a variable's bounds include what its relations to others imply
/// (`x = y` and `x <= 2` bound `y`). Sound like the analysis: every value an execution has
/// at the location lies in the range. The playground uses them to show `x + 1` instead of
/// `wrap32(x + 1)` where no wrap-around can happen. Empty above [`RANGES_WORK`].
pub fn ranges(cfa: &Cfa) -> BTreeMap<NodeId, Vec<crate::cfa::export::Range>> {
    let mut out = BTreeMap::new();
    let work: u64 = cfa
        .functions
        .iter()
        .map(|f| {
            let edges = cfa
                .edges
                .iter()
                .filter(|e| cfa.node(e.from).function == f.id)
                .count() as u64;
            edges * (tracked_vars(cfa, f.id).len() as u64).pow(3)
        })
        .sum();
    if work > RANGES_WORK {
        return out;
    }
    for f in &cfa.functions {
        let a = OctagonAnalysis::run(cfa, f.id);
        for (l, o) in &a.at {
            let vars: Vec<_> = (0..a.vars.len())
                .filter_map(|k| {
                    let (lo, hi) = a.bounds(o, k);
                    let t = cfa.var(a.vars[k]).ty;
                    (lo > t.min_value() || hi < t.max_value()).then(|| crate::cfa::export::Range {
                        var: cfa.var(a.vars[k]).qualified.clone(),
                        lo: lo.to_string(),
                        hi: hi.to_string(),
                    })
                })
                .collect();
            if !vars.is_empty() {
                out.insert(*l, vars);
            }
        }
    }
    out
}

/// The octagon invariants at the loop heads of every function (each analysed from its entry
/// with any arguments, so they hold in every calling context), as C conditions.
pub fn loop_invariants(cfa: &Cfa) -> BTreeMap<NodeId, Expr> {
    let mut out = BTreeMap::new();
    for f in &cfa.functions {
        if !cfa.nodes.iter().any(|n| n.loop_head && n.function == f.id) {
            continue;
        }
        let a = OctagonAnalysis::run(cfa, f.id);
        for n in cfa
            .nodes
            .iter()
            .filter(|n| n.loop_head && n.function == f.id)
        {
            if let Some(inv) = a.invariant(n.id) {
                out.insert(n.id, inv);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;
    use crate::ir::semantics;

    /// The shortest paths as written first (every entry through `at`, `put` and `plus`, row
    /// `k` read in place, emptiness only at the end), then the same tightening: the oracle
    /// of `closure_matches_the_plain_one`.
    fn plain_close(o: &mut Octagon) -> bool {
        let d = 2 * o.n;
        for k in 0..d {
            for i in 0..d {
                let ik = o.at(i, k);
                if ik >= INF {
                    continue;
                }
                for j in 0..d {
                    let s = plus(ik, o.at(k, j));
                    if s < o.at(i, j) {
                        o.put(i, j, s);
                    }
                }
            }
        }
        o.tighten()
    }

    /// The closure gives the plain closure's answer, and its matrix when not empty, on
    /// random octagons over 1-4 variables (pseudo-random constraints, fixed seed), empty
    /// ones among them.
    #[test]
    fn closure_matches_the_plain_one() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let (mut empty, mut nonempty) = (0, 0);
        for _ in 0..3000 {
            let n = 1 + next(4) as usize;
            let mut o = Octagon::top(n);
            for _ in 0..next(3 * n as u64 + 2) {
                let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
                let sign = |x: u64| if x == 0 { 1 } else { -1 };
                let c = next(41) as i128 - 20;
                o.add_pair((sign(next(2)), a), (sign(next(2)), b), c);
            }
            let mut plain = o.clone();
            let answer = o.close();
            assert_eq!(answer, plain_close(&mut plain), "{o:?}");
            if answer {
                assert_eq!(o, plain);
                nonempty += 1;
            } else {
                empty += 1;
            }
        }
        assert!(empty > 100 && nonempty > 100, "{empty} {nonempty}");
    }

    /// The invariants at the loop heads, in source order, as functions of named values.
    fn invariants(src: &str) -> (Cfa, Vec<Expr>) {
        let cfa = parse_program("t.c", src).unwrap().cfa;
        let invs = loop_invariants(&cfa).into_values().collect();
        (cfa, invs)
    }

    /// Whether `inv` holds where the named variables have the given values.
    fn holds(cfa: &Cfa, inv: &Expr, values: &[(&str, i128)]) -> bool {
        let env = |v: VarId| {
            values
                .iter()
                .find(|(n, _)| cfa.var(v).name == *n)
                .map(|(_, x)| *x)
        };
        semantics::eval(inv, &env).unwrap() != 0
    }

    #[test]
    fn relations_between_counters_survive_the_loops() {
        // down.i: after the first loop k == i >= n (or n < 0 and k == 0), so j <= k at the
        // second loop's head.
        let (cfa, invs) = invariants(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int n = __VERIFIER_nondet_int(); int k = 0; int i = 0;
  while (i < n) { i++; k++; }
  int j = n;
  while (j > 0) { j--; k--; }
  return 0; }",
        );
        assert_eq!(invs.len(), 2);
        let first = [("n", 10), ("k", 4), ("i", 4)];
        assert!(holds(&cfa, &invs[0], &first));
        assert!(
            !holds(&cfa, &invs[0], &[("n", 10), ("k", 5), ("i", 4)]),
            "k == i"
        );
        let second = [("n", 10), ("k", 7), ("i", 10), ("j", 7)];
        assert!(holds(&cfa, &invs[1], &second));
        assert!(
            !holds(&cfa, &invs[1], &[("n", 10), ("k", 6), ("i", 10), ("j", 7)]),
            "j <= k"
        );
    }

    #[test]
    fn wrap_around_is_not_read_as_a_relation() {
        // x = y + 1 wraps at y == 255: x == y + 1 must not be stated.
        let (cfa, invs) = invariants(
            "extern unsigned char __VERIFIER_nondet_uchar(void); extern int __VERIFIER_nondet_int(void);
int main(void) { unsigned char y = __VERIFIER_nondet_uchar(); unsigned char x = y + 1;
  while (__VERIFIER_nondet_int()) { } return 0; }",
        );
        // (No invariant at all is right too: both are anywhere in their ranges.)
        assert!(invs.iter().all(|i| holds(&cfa, i, &[("y", 255), ("x", 0)])));
        assert!(invs.iter().all(|i| holds(&cfa, i, &[("y", 3), ("x", 4)])));
        // Signed: i + 1 wraps at INT_MAX, so i + 1 > i is no relation either.
        let (cfa, invs) = invariants(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int i = __VERIFIER_nondet_int(); int j = i + 1;
  while (__VERIFIER_nondet_int()) { } return 0; }",
        );
        assert!(invs
            .iter()
            .all(|inv| holds(&cfa, inv, &[("i", 2147483647), ("j", -2147483648)])));
        // Where the octagon shows that no value wraps, the relation is kept.
        let (cfa, invs) = invariants(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int i = __VERIFIER_nondet_int(); if (i > 100) return 0; int j = i + 1;
  while (__VERIFIER_nondet_int()) { } return 0; }",
        );
        assert!(holds(&cfa, &invs[0], &[("i", 5), ("j", 6)]));
        assert!(!holds(&cfa, &invs[0], &[("i", 5), ("j", 7)]), "j == i + 1");
    }

    #[test]
    fn conditions_bound_relations_and_widening_keeps_the_stable_ones() {
        // nest-if3's shape: l - k never grows, so l stays bounded although it is incremented.
        let (cfa, invs) = invariants(
            "extern int __VERIFIER_nondet_int(void);
int main(void) { int n = __VERIFIER_nondet_int(); int l = __VERIFIER_nondet_int();
  if (!(l > 0)) return 0; if (!(l < 1000000)) return 0; if (!(n < 1000000)) return 0;
  for (int k = 1; k < n; k++) { if (__VERIFIER_nondet_int()) l = l + 1; }
  return 0; }",
        );
        let inv = &invs[0];
        assert!(holds(&cfa, inv, &[("n", 10), ("l", 5), ("k", 3)]));
        assert!(
            !holds(&cfa, inv, &[("n", 10), ("l", 0), ("k", 3)]),
            "l >= 1"
        );
        assert!(
            !holds(&cfa, inv, &[("n", 10), ("l", 1000000), ("k", 1)]),
            "l - k <= 999998"
        );
    }

    /// The playground asks for ranges with every CFA it shows: above the work bound (edges
    /// times tracked variables cubed) there are none, below it the loop head's are there.
    #[test]
    fn ranges_are_bounded_by_the_work_they_take() {
        let decls: String = (0..32).map(|k| format!("  int v{k} = {k};\n")).collect();
        let body: String = (0..32).map(|k| format!("    v{k} = v{k} + 1;\n")).collect();
        let src = format!(
            "int main(void) {{\n{decls}  int n = 0;\n  while (n < 4) {{\n{body}    n++;\n  }}\n  return 0;\n}}\n"
        );
        let cfa = crate::frontend::parse_program("t.c", &src).unwrap().cfa;
        assert!(cfa.edges.len() as u64 * 32u64.pow(3) > super::RANGES_WORK);
        assert!(super::ranges(&cfa).is_empty());
        let small =
            "int main(void) {\n  int n = 0;\n  while (n < 4) {\n    n++;\n  }\n  return 0;\n}\n";
        let cfa = crate::frontend::parse_program("t.c", small).unwrap().cfa;
        let head = cfa.nodes.iter().find(|n| n.loop_head).unwrap().id;
        let r = &super::ranges(&cfa)[&head];
        assert_eq!(
            (r[0].var.as_str(), r[0].lo.as_str(), r[0].hi.as_str()),
            ("main::n", "0", "4")
        );
    }

    /// A callee that writes through a pointer changes the caller's variables in memory: their
    /// ranges before the call do not hold after it (`count(&c)` increments `c.even`; the
    /// analyses once kept `c.even` in [0, 0] at the loop head).
    #[test]
    fn a_call_forgets_what_it_may_write_through_pointers() {
        let src = "struct counters { int even; int odd; };\n\
            void count(struct counters *c, int x) { if (x % 2 == 0) c->even++; else c->odd++; }\n\
            int main(void) {\n  struct counters c = {0, 0};\n  int n = 0;\n\
            while (n < 4) { count(&c, n); n++; }\n  return c.even;\n}\n";
        let cfa = crate::frontend::parse_program("t.c", src).unwrap().cfa;
        let head = cfa
            .nodes
            .iter()
            .find(|n| n.loop_head && n.function == cfa.main)
            .unwrap()
            .id;
        let ranges = super::ranges(&cfa);
        let at_head: Vec<&str> = ranges[&head].iter().map(|r| r.var.as_str()).collect();
        assert_eq!(at_head, ["main::n"]);
        let intervals = crate::invariants::intervals::IntervalAnalysis::run(&cfa, cfa.main);
        let c_even = (0..cfa.vars.len() as u32)
            .map(crate::ir::VarId)
            .find(|v| cfa.var(*v).qualified == "main::c.even")
            .unwrap();
        let i = intervals.at[&head].get(&c_even);
        assert!(
            i.is_none_or(|i| !i.narrower_than(cfa.var(c_even).ty)),
            "{i:?}"
        );
    }
}
