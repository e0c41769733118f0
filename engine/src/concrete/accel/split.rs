//! Input splitting: a run of the program for a whole class of values of one input at once.
//!
//! When a concrete run needs an input, the input becomes a parameter `t` ranging over an
//! interval (first its type's whole range), and every value the run computes is kept as an
//! affine form `a·t + b` ([`Lin`]). As long as each decision the run makes (a branch, a
//! wrap-around, a condition inside an expression) comes out the same for every `t` of the
//! interval, one interpreted run stands for the runs of all those inputs; where a decision
//! differs, the interval is split at the exact value where it changes ([`Need::Split`]): for
//! an affine form every such decision is monotone in `t` (an order comparison, the number of
//! wrap-arounds) or changes at one point (`==`, `!=`), so the two parts each decide it one way.
//! An operation whose result is not affine in `t` (a product of two forms, a division, a bit
//! operation, a second input) needs single values ([`Need::Points`]): a class of at most
//! [`ENUMERATE`] values is then enumerated, a larger one cannot be followed.
//!
//! The classes are exact, never approximations: every input value belongs to exactly one class,
//! and every run of a class takes the same path. So a class that ends without reaching the
//! error proves that no input of it does, and a class that reaches the error gives a
//! counterexample for any of its values. A class of one value is a concrete run again (and
//! goes on with loop acceleration, [`crate::concrete::accel::Runner`]).

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::concrete::{Machine, MachineParts};
use crate::ir::semantics::{self, EvalError};
use crate::ir::{BinOp, Expr, ExprKind, IntKind, IntType, UnOp, VarId};
use std::collections::BTreeMap;

/// The largest class that is enumerated value by value when the run needs single values.
pub const ENUMERATE: i128 = 64;

/// The affine form `a·t + b` in the parameter `t` of the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lin {
    pub a: i128,
    pub b: i128,
}

impl Lin {
    pub fn konst(b: i128) -> Lin {
        Lin { a: 0, b }
    }

    pub fn at(self, t: i128) -> i128 {
        self.a * t + self.b
    }

    pub fn constant(self) -> Option<i128> {
        (self.a == 0).then_some(self.b)
    }

    /// Forms whose coefficients stay below 2^62 and 2^66: with `|t| <= 2^64`, `a·t + b` cannot
    /// overflow `i128` (larger ones are not followed: [`Need::Points`]).
    fn bounded(a: Option<i128>, b: Option<i128>) -> Option<Lin> {
        let (a, b) = (a?, b?);
        (a.abs() < 1 << 62 && b.abs() < 1 << 66).then_some(Lin { a, b })
    }

    fn add(self, o: Lin) -> Option<Lin> {
        Lin::bounded(self.a.checked_add(o.a), self.b.checked_add(o.b))
    }

    fn neg(self) -> Option<Lin> {
        Lin::bounded(self.a.checked_neg(), self.b.checked_neg())
    }

    fn scale(self, c: i128) -> Option<Lin> {
        Lin::bounded(self.a.checked_mul(c), self.b.checked_mul(c))
    }
}

/// What the interpreter needs before it can execute an edge for the whole class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// The class must be split into `[lo, s]` and `[s + 1, hi]`.
    Split(i128),
    /// The class must be split by the residue of `t` modulo `k` ([`ClassMachine::residue`]):
    /// a division or remainder by a constant is affine on each part.
    Residue(i128),
    /// The operation needs single values of `t` (the text says which operation).
    Points(String),
    /// Undefined behaviour for every value of the class (a division by a constant zero).
    Undefined(String),
}

/// A run for every `t` in `[lo, hi]` at once: globals and frames as in [`Machine`], values as
/// affine forms.
#[derive(Clone, Debug)]
pub struct ClassMachine {
    parts: MachineParts<Lin>,
    pub lo: i128,
    pub hi: i128,
    /// The variable whose input `t` stands for, the line where it was read, and the step of
    /// the run at which an oracle gives its value (the nondeterministic assignment, or the
    /// declaration of an uninitialised local).
    pub input: VarId,
    pub input_line: u32,
    pub input_step: usize,
    /// The run's step where the class began (its runs are interpreted edge by edge from
    /// there, without acceleration).
    pub start_step: usize,
    /// The input's value as a form of the class's parameter `t` (`t` itself, until a
    /// residue split makes it `k·t + q`).
    pub input_form: Lin,
    /// The input is read by the next nondeterministic assignment to `input`.
    pending: bool,
}

type R<T> = std::result::Result<T, Need>;

impl ClassMachine {
    /// The run of `machine`, which needs a value for `var` at its location: either the edge
    /// there assigns `var` a nondeterministic value, or `var` is read without a value (an
    /// uninitialised local declared at step `declared`), and then `t` is its value from now on.
    pub fn new(cfa: &Cfa, machine: &Machine, var: VarId, declared: usize) -> ClassMachine {
        let p = machine.parts();
        let read = cfa.successors(p.location).find(|e| match &e.kind {
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Nondet { .. },
            }
            | EdgeKind::Declare {
                var: lhs,
                init: Some(Rhs::Nondet { .. }),
            } => *lhs == var,
            _ => false,
        });
        let ty = cfa.var(var).ty;
        let mut m = ClassMachine {
            parts: p.map(|x| Lin::konst(*x)),
            lo: ty.min_value(),
            hi: ty.max_value(),
            input: var,
            input_line: cfa.node(p.location).line,
            input_step: if read.is_some() { p.step } else { declared },
            start_step: p.step,
            input_form: Lin { a: 1, b: 0 },
            pending: read.is_some(),
        };
        match read {
            // The edge that reads the input is executed at once (it assigns `t`, which needs
            // no decision), so that a class never stands before it.
            Some(e) => {
                // Cannot fail (it needs nothing); if it did, `pending` stays set and the
                // assignment is executed as the class's next edge.
                let _ = m.execute(cfa, e);
            }
            None => m.set(cfa, var, Lin { a: 1, b: 0 }),
        }
        m
    }

    pub fn location(&self) -> NodeId {
        self.parts.location
    }

    pub fn depth(&self) -> usize {
        self.parts.frames.len()
    }

    pub fn steps(&self) -> usize {
        self.parts.step
    }

    pub fn size(&self) -> i128 {
        self.hi - self.lo + 1
    }

    /// The same run restricted to `t` in `[lo, hi]`.
    pub fn restricted(&self, lo: i128, hi: i128) -> ClassMachine {
        ClassMachine {
            lo,
            hi,
            ..self.clone()
        }
    }

    /// The part of the class where `t ≡ q (mod k)`, with a new parameter `u` for `t = k·u + q`
    /// (`None`: no value of the class is in it; `Err`: its forms would grow too large).
    pub fn residue(&self, k: i128, q: i128) -> R<Option<ClassMachine>> {
        let lo = (self.lo - q + k - 1).div_euclid(k);
        let hi = (self.hi - q).div_euclid(k);
        if lo > hi {
            return Ok(None);
        }
        let too_large = || Need::Points("a value too large to follow as a form".into());
        let sub = |x: &Lin| -> R<Lin> {
            let b = x.a.checked_mul(q).and_then(|aq| aq.checked_add(x.b));
            Lin::bounded(x.a.checked_mul(k), b).ok_or_else(too_large)
        };
        let mut out = self.clone();
        out.parts = self.parts.try_map(sub)?;
        out.input_form = sub(&self.input_form)?;
        out.lo = lo;
        out.hi = hi;
        Ok(Some(out))
    }

    /// The concrete run for `t = value`.
    pub fn concrete(&self, value: i128) -> Machine {
        Machine::from_parts(self.parts.map(|x| x.at(value)))
    }

    /// The user's variables in scope, `x = 2t - 49` or `x = 3`.
    pub fn visible_values(&self, cfa: &Cfa) -> Vec<(String, String)> {
        let frame = self.parts.frames.last();
        self.parts
            .globals
            .iter()
            .chain(frame.into_iter().flatten())
            .filter(|(v, _)| !cfa.var(**v).synthetic)
            .map(|(v, x)| (cfa.var(*v).name.clone(), show(*x)))
            .collect()
    }

    /// The frame holding `v` (`None`: a global).
    fn frame(&self, cfa: &Cfa, v: VarId) -> Option<usize> {
        let f = cfa.var(v).function?;
        Some(crate::concrete::frame_of(
            cfa,
            self.parts.location,
            &self.parts.return_sites,
            self.parts.frames.len(),
            f,
        ))
    }

    fn get(&self, cfa: &Cfa, v: VarId) -> Option<Lin> {
        match self.frame(cfa, v) {
            None => self.parts.globals.get(&v).copied(),
            Some(k) => self.parts.frames.get(k).and_then(|f| f.get(&v).copied()),
        }
    }

    /// Stores a value already within `v`'s type.
    fn set(&mut self, cfa: &Cfa, v: VarId, value: Lin) {
        match self.frame(cfa, v) {
            None => {
                self.parts.globals.insert(v, value);
            }
            Some(k) => {
                if let Some(f) = self.parts.frames.get_mut(k) {
                    f.insert(v, value);
                }
            }
        }
    }

    /// Stores into the top frame (a call binding its parameters, a return its result, while
    /// the location is not yet in the frame's function).
    fn set_top(&mut self, cfa: &Cfa, v: VarId, value: Lin) {
        if cfa.var(v).function.is_none() {
            self.parts.globals.insert(v, value);
        } else if let Some(f) = self.parts.frames.last_mut() {
            f.insert(v, value);
        }
    }

    fn unset(&mut self, cfa: &Cfa, v: VarId) {
        match self.frame(cfa, v) {
            None => {
                self.parts.globals.remove(&v);
            }
            Some(k) => {
                if let Some(f) = self.parts.frames.get_mut(k) {
                    f.remove(&v);
                }
            }
        }
    }

    /// `x` converted to `ty`: wrapped around as C does, which for every `t` of the class must
    /// wrap the same number of times (else the class is split where that number changes).
    fn fit(&self, ty: IntType, x: Lin) -> R<Lin> {
        if let Some(c) = x.constant() {
            return Ok(Lin::konst(ty.wrap(c)));
        }
        if ty.kind == IntKind::Bool {
            return self.compare(BinOp::Ne, x, Lin::konst(0));
        }
        let modulus = 1i128 << ty.bits();
        let min = ty.min_value();
        let laps = |t: i128| (x.at(t) - min).div_euclid(modulus);
        let k = self.monotone(laps)?;
        Ok(Lin {
            a: x.a,
            b: x.b - k * modulus,
        })
    }

    /// The value of `f`, monotone in `t`, when it is the same over the class; else the split
    /// after the last `t` where it has its value at `lo`.
    fn monotone<T: PartialEq>(&self, f: impl Fn(i128) -> T) -> R<T> {
        let first = f(self.lo);
        if f(self.hi) == first {
            return Ok(first);
        }
        // f(lo) == first and f(hi) != first: find the last s with f(s) == first.
        let (mut good, mut bad) = (self.lo, self.hi);
        while bad - good > 1 {
            let mid = good + (bad - good) / 2;
            if f(mid) == first {
                good = mid;
            } else {
                bad = mid;
            }
        }
        Err(Need::Split(good))
    }

    /// `x op y` (a comparison) as 0 or 1.
    fn compare(&self, op: BinOp, x: Lin, y: Lin) -> R<Lin> {
        let d = Lin {
            a: x.a - y.a,
            b: x.b - y.b,
        };
        let truth = |t: i128| semantics::compare(op, d.at(t), 0);
        let value = match op {
            BinOp::Eq | BinOp::Ne if d.a != 0 => {
                // a·t + b = 0 at one t at most.
                let zero = (d.b % d.a == 0).then(|| -d.b / d.a);
                match zero {
                    Some(z) if self.lo <= z && z <= self.hi && self.lo < self.hi => {
                        return Err(Need::Split(if z > self.lo { z - 1 } else { z }));
                    }
                    _ => truth(self.lo),
                }
            }
            _ => self.monotone(truth)?,
        };
        Ok(Lin::konst(i128::from(value)))
    }

    /// `x / c` or `x % c` (C's, truncating) for a constant `c > 0`: affine where `x` keeps
    /// one sign and its coefficient is a multiple of `c`; else the class is split.
    fn div_rem(&self, op: BinOp, ty: IntType, x: Lin, c: i128) -> R<Lin> {
        let nonneg = self.monotone(|t| x.at(t) >= 0)?;
        if x.a % c != 0 {
            let (mut g, mut h) = (x.a.abs(), c);
            while h != 0 {
                (g, h) = (h, g % h);
            }
            return Err(if c / g <= ENUMERATE {
                Need::Residue(c / g)
            } else {
                Need::Points(format!(
                    "'{}' by {c} of an input-dependent value",
                    op.symbol()
                ))
            });
        }
        let a = x.a / c;
        // x = c·a·t + b: floor division shifts by a·t; truncation of a negative x is the
        // negated floor of -x.
        let r = match (op, nonneg) {
            (BinOp::Div, true) => Lin {
                a,
                b: x.b.div_euclid(c),
            },
            (BinOp::Div, false) => Lin {
                a,
                b: -(-x.b).div_euclid(c),
            },
            (_, true) => Lin::konst(x.b.rem_euclid(c)),
            (_, false) => Lin::konst(-(-x.b).rem_euclid(c)),
        };
        self.fit(ty, r)
    }

    fn truth(&self, x: Lin) -> R<bool> {
        Ok(self.compare(BinOp::Ne, x, Lin::konst(0))?.b != 0)
    }

    fn eval(&self, cfa: &Cfa, e: &Expr) -> R<Lin> {
        let overflow = || Need::Points("a value too large to follow as a form".into());
        match &e.kind {
            ExprKind::Const(v) => Ok(Lin::konst(*v)),
            ExprKind::Var(v) => self.get(cfa, *v).ok_or_else(|| {
                Need::Points(format!("'{}' read without a value", cfa.var(*v).name))
            }),
            ExprKind::Unary(op, a) => {
                let x = self.eval(cfa, a)?;
                match op {
                    UnOp::Neg => self.fit(e.ty, x.neg().ok_or_else(overflow)?),
                    // ~x = -x - 1
                    UnOp::BitNot => self.fit(
                        e.ty,
                        x.neg()
                            .and_then(|n| n.add(Lin::konst(-1)))
                            .ok_or_else(overflow)?,
                    ),
                    UnOp::LogNot => self.compare(BinOp::Eq, x, Lin::konst(0)),
                }
            }
            ExprKind::Binary(op, a, b) => match op {
                BinOp::LogAnd | BinOp::LogOr => {
                    let first = self.truth(self.eval(cfa, a)?)?;
                    if first == (*op == BinOp::LogOr) {
                        return Ok(Lin::konst(i128::from(first)));
                    }
                    Ok(Lin::konst(i128::from(self.truth(self.eval(cfa, b)?)?)))
                }
                op if op.is_comparison() => {
                    self.compare(*op, self.eval(cfa, a)?, self.eval(cfa, b)?)
                }
                op => {
                    let (x, y) = (self.eval(cfa, a)?, self.eval(cfa, b)?);
                    match (op, x.constant(), y.constant()) {
                        (BinOp::Div | BinOp::Rem, None, Some(c)) if c > 0 => {
                            return self.div_rem(*op, e.ty, x, c)
                        }
                        _ => {}
                    }
                    if let (Some(p), Some(q)) = (x.constant(), y.constant()) {
                        let r = match op {
                            BinOp::Shl | BinOp::Shr => semantics::shift(*op, e.ty, p, q),
                            _ => semantics::arith(*op, e.ty, p, q),
                        };
                        return r.map(Lin::konst).map_err(|err| match err {
                            EvalError::Unknown(_) => overflow(),
                            other => Need::Undefined(other.to_string()),
                        });
                    }
                    let sum = match op {
                        BinOp::Add => x.add(y),
                        BinOp::Sub => y.neg().and_then(|n| x.add(n)),
                        BinOp::Mul => match (x.constant(), y.constant()) {
                            (Some(c), None) => y.scale(c),
                            (None, Some(c)) => x.scale(c),
                            _ => {
                                return Err(Need::Points(
                                    "a product of two input-dependent values".into(),
                                ))
                            }
                        },
                        other => {
                            return Err(Need::Points(format!(
                                "'{}' of an input-dependent value",
                                other.symbol()
                            )))
                        }
                    };
                    self.fit(e.ty, sum.ok_or_else(overflow)?)
                }
            },
            ExprKind::Cast { operand, .. } => self.fit(e.ty, self.eval(cfa, operand)?),
            ExprKind::Ite(c, a, b) => {
                if self.truth(self.eval(cfa, c)?)? {
                    self.eval(cfa, a)
                } else {
                    self.eval(cfa, b)
                }
            }
        }
    }

    /// The edge the runs of the class take from the current location (the same for all of
    /// them), if any.
    pub fn enabled_edge<'c>(&self, cfa: &'c Cfa) -> R<Option<&'c Edge>> {
        for e in cfa.successors(self.parts.location) {
            let ok = match &e.kind {
                EdgeKind::Assume { cond, truth } => self.truth(self.eval(cfa, cond)?)? == *truth,
                EdgeKind::Return { .. } => self.parts.return_sites.last() == Some(&e.to),
                _ => true,
            };
            if ok {
                return Ok(Some(e));
            }
        }
        Ok(None)
    }

    fn rhs(&mut self, cfa: &Cfa, r: &Rhs, v: VarId) -> R<Lin> {
        match r {
            Rhs::Expr(e) => self.fit(cfa.var(v).ty, self.eval(cfa, e)?),
            Rhs::Nondet { .. } if self.pending && v == self.input => Ok(Lin { a: 1, b: 0 }),
            Rhs::Nondet { .. } => Err(Need::Points("another input".into())),
        }
    }

    /// Whether `e` evaluates to the variable `v` itself for the whole class (the `else`
    /// branch of a memory write to another cell).
    fn keeps(&self, cfa: &Cfa, e: &crate::ir::Expr, v: VarId) -> bool {
        use crate::ir::ExprKind;
        match &e.kind {
            ExprKind::Var(x) => *x == v,
            ExprKind::Ite(c, a, b) => match self.eval(cfa, c).ok().and_then(|l| l.constant()) {
                Some(0) => self.keeps(cfa, b, v),
                Some(_) => self.keeps(cfa, a, v),
                None => false,
            },
            _ => false,
        }
    }

    /// Executes `edge` for the whole class; nothing changes when a [`Need`] is returned.
    pub fn execute(&mut self, cfa: &Cfa, edge: &Edge) -> R<()> {
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
            EdgeKind::Assume { .. } => {} // chosen by `enabled_edge`
            EdgeKind::Assign { lhs, rhs } => {
                // A cell without a value that keeps it (`c = (addr == &c) ? v : c` of a
                // write elsewhere) still has none.
                let keeps = match rhs {
                    Rhs::Expr(e) => self.get(cfa, *lhs).is_none() && self.keeps(cfa, e, *lhs),
                    Rhs::Nondet { .. } => false,
                };
                if !keeps {
                    let v = self.rhs(cfa, rhs, *lhs)?;
                    self.pending = false;
                    self.set(cfa, *lhs, v);
                }
            }
            EdgeKind::Declare { var, init } => match init {
                Some(r) => {
                    let v = self.rhs(cfa, r, *var)?;
                    self.pending = false;
                    self.set(cfa, *var, v);
                }
                None => self.unset(cfa, *var),
            },
            EdgeKind::Call {
                callee,
                args,
                return_site,
            } => {
                let params = cfa.function(*callee).params.clone();
                let mut values = Vec::new();
                for (p, a) in params.iter().zip(args) {
                    values.push(self.fit(cfa.var(*p).ty, self.eval(cfa, a)?)?);
                }
                self.parts.frames.push(BTreeMap::new());
                self.parts.return_sites.push(*return_site);
                for (p, v) in params.into_iter().zip(values) {
                    self.set_top(cfa, p, v);
                }
            }
            EdgeKind::ReturnValue { function, value } => {
                if let (Some(e), Some((_, rv))) = (value, cfa.function(*function).ret) {
                    let v = self.fit(cfa.var(rv).ty, self.eval(cfa, e)?)?;
                    self.set(cfa, rv, v);
                }
            }
            EdgeKind::Return { callee, assign, .. } => {
                let ret = cfa
                    .function(*callee)
                    .ret
                    .and_then(|(_, rv)| self.get(cfa, rv));
                if assign.is_some() && ret.is_none() {
                    return Err(Need::Points(
                        "a function's result read without a value".into(),
                    ));
                }
                let ret = match (assign, ret) {
                    (Some(a), Some(r)) => Some((*a, self.fit(cfa.var(*a).ty, r)?)),
                    _ => None,
                };
                self.parts.return_sites.pop();
                self.parts.frames.pop();
                if let Some((a, r)) = ret {
                    self.set_top(cfa, a, r);
                }
            }
        }
        self.parts.location = edge.to;
        self.parts.step += 1;
        Ok(())
    }
}

/// `2t - 49`, `t`, `-t`, `7`.
pub fn show(x: Lin) -> String {
    let a = match x.a {
        0 => return x.b.to_string(),
        1 => "t".to_string(),
        -1 => "-t".to_string(),
        a => format!("{a}t"),
    };
    match x.b {
        0 => a,
        b if b > 0 => format!("{a} + {b}"),
        b => format!("{a} - {}", -b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    /// A class machine for `int x` over `[lo, hi]`, after `int x = nondet();` in `main`.
    fn class(lo: i128, hi: i128) -> (Cfa, ClassMachine) {
        let src = "extern int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); return x; }";
        let cfa = parse_program("t.c", src).unwrap().cfa;
        let mut runner = crate::concrete::accel::Runner::new(&cfa);
        let var = loop {
            match runner.step(&cfa, &mut crate::concrete::accel::NoInput) {
                Err(crate::concrete::accel::RunError::Exec(
                    crate::concrete::ExecError::NoValue { var, .. },
                )) => break var,
                Ok(_) => {}
                Err(e) => panic!("{e}"),
            }
        };
        let var = VarId(cfa.vars.iter().position(|v| v.qualified == var).unwrap() as u32);
        let m = ClassMachine::new(&cfa, &runner.machine, var, 0).restricted(lo, hi);
        (cfa, m)
    }

    #[test]
    fn order_comparisons_split_where_their_truth_changes() {
        let (_, m) = class(-10, 10);
        let t = Lin { a: 1, b: 0 };
        // 2t - 3 < 0 exactly for t <= 1.
        assert_eq!(
            m.compare(BinOp::Lt, Lin { a: 2, b: -3 }, Lin::konst(0)),
            Err(Need::Split(1))
        );
        assert_eq!(
            m.restricted(2, 10).compare(BinOp::Lt, t, Lin::konst(2)),
            Ok(Lin::konst(0))
        );
        // -t >= 4 for t <= -4.
        assert_eq!(
            m.compare(BinOp::Ge, Lin { a: -1, b: 0 }, Lin::konst(4)),
            Err(Need::Split(-4))
        );
    }

    #[test]
    fn equalities_split_off_their_one_solution() {
        let (_, m) = class(-10, 10);
        let t = Lin { a: 1, b: 0 };
        // 3t == 6 at t = 2: first [-10, 1] | [2, 10], then [2, 2] | [3, 10].
        let three_t = Lin { a: 3, b: 0 };
        assert_eq!(
            m.compare(BinOp::Eq, three_t, Lin::konst(6)),
            Err(Need::Split(1))
        );
        assert_eq!(
            m.restricted(2, 10)
                .compare(BinOp::Eq, three_t, Lin::konst(6)),
            Err(Need::Split(2))
        );
        // 3t == 7 has no integer solution: false for the whole class.
        assert_eq!(
            m.compare(BinOp::Eq, three_t, Lin::konst(7)),
            Ok(Lin::konst(0))
        );
        assert_eq!(m.compare(BinOp::Ne, t, Lin::konst(20)), Ok(Lin::konst(1)));
    }

    #[test]
    fn wrap_around_is_exact_per_part() {
        let (_, m) = class(0, 255);
        let uchar = IntType {
            kind: IntKind::Char,
            signed: false,
        };
        // 3t in unsigned char: no wrap for t <= 85, one wrap for 86..=170, two above.
        let x = Lin { a: 3, b: 0 };
        assert_eq!(m.fit(uchar, x), Err(Need::Split(85)));
        assert_eq!(
            m.restricted(86, 170).fit(uchar, x),
            Ok(Lin { a: 3, b: -256 })
        );
        assert_eq!(
            m.restricted(171, 255).fit(uchar, x),
            Ok(Lin { a: 3, b: -512 })
        );
        // A value-preserving conversion keeps the form.
        assert_eq!(m.fit(IntType::INT, x), Ok(x));
    }

    #[test]
    fn forms_are_shown_as_c_reads_them() {
        assert_eq!(show(Lin { a: 2, b: -49 }), "2t - 49");
        assert_eq!(show(Lin { a: 1, b: 0 }), "t");
        assert_eq!(show(Lin { a: -1, b: 3 }), "-t + 3");
        assert_eq!(show(Lin::konst(-7)), "-7");
    }

    #[test]
    fn nonlinear_operations_need_single_values() {
        let (cfa, m) = class(-10, 10);
        let x = Expr::var(m.input, IntType::INT);
        let bin = |op: BinOp, a: &Expr, b: Expr| Expr {
            ty: IntType::INT,
            kind: ExprKind::Binary(op, Box::new(a.clone()), Box::new(b)),
        };
        let c = |v: i128| Expr::constant(IntType::INT, v);
        assert!(matches!(
            m.eval(&cfa, &bin(BinOp::Mul, &x, x.clone())),
            Err(Need::Points(_))
        ));
        assert!(matches!(
            m.eval(&cfa, &bin(BinOp::BitAnd, &x, c(6))),
            Err(Need::Points(_))
        ));
        // A division by a constant splits by sign first, then by residue; on a part with
        // the coefficient a multiple of the divisor it is affine.
        assert_eq!(
            m.eval(&cfa, &bin(BinOp::Div, &x, c(2))),
            Err(Need::Split(-1))
        );
        let nonneg = m.restricted(0, 10);
        assert_eq!(
            nonneg.eval(&cfa, &bin(BinOp::Rem, &x, c(2))),
            Err(Need::Residue(2))
        );
        let odd = nonneg.residue(2, 1).unwrap().unwrap(); // x = 2u + 1, u in [0, 4]
        assert_eq!((odd.lo, odd.hi), (0, 4));
        assert_eq!(
            odd.eval(&cfa, &bin(BinOp::Rem, &x, c(2))),
            Ok(Lin::konst(1))
        );
        assert_eq!(
            odd.eval(&cfa, &bin(BinOp::Div, &x, c(2))),
            Ok(Lin { a: 1, b: 0 })
        );
        // x in [-10, -1], x = 2u + 1 (u in [-5, -1]): x / 2 truncates toward zero to u + 1.
        let negative_odd = m.restricted(-10, -1).residue(2, 1).unwrap().unwrap();
        assert_eq!(
            negative_odd.eval(&cfa, &bin(BinOp::Div, &x, c(2))),
            Ok(Lin { a: 1, b: 1 })
        );
        assert_eq!(
            negative_odd.eval(&cfa, &bin(BinOp::Rem, &x, c(2))),
            Ok(Lin::konst(-1))
        );
        // More than 64 residues: single values.
        assert!(matches!(
            nonneg.eval(&cfa, &bin(BinOp::Div, &x, c(1000))),
            Err(Need::Points(_))
        ));
    }
}
