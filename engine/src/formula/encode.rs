//! Strongest postconditions of CFA edges as SSA path formulas, with exact ILP32 semantics.
//!
//! Two encodings:
//! * [`Encoding::Bv`]: bit-precise. Every C value is a bit-vector of its type's width; signed
//!   arithmetic wraps, as in the concrete semantics ([`crate::ir::semantics`]). Exact.
//! * [`Encoding::Int`]: linear integer arithmetic, the theory the interpolation strategies
//!   handle. Variables are integers constrained to their type's range. Unsigned arithmetic wraps
//!   (linearly for `+`/`-`, with `mod` otherwise); conversions wrap exactly; C's truncating `/`
//!   and `%` are expressed with SMT's Euclidean `div`/`mod`; shifts by constants and bit masks are
//!   exact. Signed arithmetic wraps like the concrete semantics (two's complement, gcc's
//!   `-fwrapv`; ARCHITECTURE.md, "Semantics decisions"): an operation whose result can leave its
//!   type's range, judged from the operands' static ranges ([`value_range`]), is wrapped
//!   exactly (an `ite` chain over the few multiples of 2^w the result can cross, or quotient
//!   and remainder variables); in a CFA with overflow checks (`signed-overflow=check`,
//!   [`crate::cfa::transform::overflow`]) the checked operations are encoded without wrap-around, which
//!   is exact where the checks pass. Bitwise operations
//!   without an exact linear form are over-approximated by a fresh value with sound bounds, and
//!   the formula is marked approximated: a counterexample that depends on it fails the concrete
//!   validation and is never reported.

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use crate::formula::ssa::{indexed_name, Slot, SsaMap};
use crate::ir::range::{raw_range, value_range};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntKind, IntType, UnOp, VarId};
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};
use solver_bridge::term::{Op, Sort, Term};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    Int,
    Bv,
}

/// The encoding a configuration asks for: one of the two, or `auto`, resolved per program by
/// [`EncodingChoice::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EncodingChoice {
    Int,
    Bv,
    /// `Int`, unless an edge of the program has no exact Int encoding (a bit operation that
    /// [`Encoding::Int`] over-approximates, such as `x & y` or `1 << c` with a variable `c`);
    /// then `Bv`. Interpolating over an over-approximation either fails (the projections keep
    /// quantifiers) or finds spurious paths it cannot refute (on `num_conversion_1.c`, Int
    /// ends UNKNOWN after 35 s, Bv proves it in half a second).
    Auto,
}

impl EncodingChoice {
    /// The encoding used for `cfa`.
    pub fn resolve(self, cfa: &Cfa) -> Encoding {
        match self {
            EncodingChoice::Int => Encoding::Int,
            EncodingChoice::Bv => Encoding::Bv,
            EncodingChoice::Auto if Encoder::new(cfa, Encoding::Int).needs_bits() => Encoding::Bv,
            EncodingChoice::Auto => Encoding::Int,
        }
    }
}

/// A path formula: the SP of a sequence (or, after merges, a DAG) of edges, with the SSA map
/// after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathFormula {
    pub formula: Term,
    pub ssa: SsaMap,
    /// The formula over-approximates some operation (Int encoding of bit operations).
    pub approximated: bool,
}

impl PathFormula {
    pub fn empty(ssa: SsaMap) -> PathFormula {
        PathFormula {
            formula: Term::tt(),
            ssa,
            approximated: false,
        }
    }
}

/// The activation number of each function's innermost frame in a control state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frames {
    /// By function (sorted): a list, not a map, since a program has few functions and every
    /// symbolic post computes two of these.
    innermost: Vec<(FuncId, u32)>,
}

/// A location with the return sites of the active calls: what the frames of the variables
/// are read from. The CPA core's control state is one ([`crate::cpa::control::ControlState`]).
pub trait CallContext {
    fn location(&self) -> NodeId;
    /// Return sites of the active calls, innermost last.
    fn return_sites(&self) -> &[NodeId];
}

/// A location outside any call.
pub struct TopLevel(pub NodeId);

impl CallContext for TopLevel {
    fn location(&self) -> NodeId {
        self.0
    }
    fn return_sites(&self) -> &[NodeId] {
        &[]
    }
}

impl Frames {
    pub fn of(cfa: &Cfa, ctl: &(impl CallContext + ?Sized)) -> Frames {
        let funcs = ctl
            .return_sites()
            .iter()
            .map(|r| cfa.node(*r).function)
            .chain(std::iter::once(cfa.node(ctl.location()).function));
        // The number of activations of each function so far, then the last one's number.
        let mut innermost: Vec<(FuncId, u32)> = Vec::new();
        for f in funcs {
            match innermost.iter_mut().find(|(g, _)| *g == f) {
                Some((_, n)) => *n += 1,
                None => innermost.push((f, 0)),
            }
        }
        innermost.sort_unstable();
        Frames { innermost }
    }

    pub fn slot(&self, cfa: &Cfa, v: VarId) -> Slot {
        let instance = match cfa.var(v).function {
            Some(f) => self.slot_instance(f),
            None => 0,
        };
        Slot { var: v, instance }
    }

    /// The activation number of `f`'s innermost frame (0 when `f` is not active).
    pub fn slot_instance(&self, f: FuncId) -> u32 {
        self.innermost
            .binary_search_by_key(&f, |(g, _)| *g)
            .map_or(0, |i| self.innermost[i].1)
    }
}

/// The variable slot used for auxiliary values of over-approximations.
pub const AUX: Slot = Slot {
    var: VarId(u32::MAX),
    instance: 0,
};

pub struct Encoder<'c> {
    pub cfa: &'c Cfa,
    pub encoding: Encoding,
}

fn big(v: i128) -> Term {
    Term::int(BigInt::from(v))
}

/// A value known to lie in a range that wraps at most this many times into its target type is
/// wrapped by an `ite` chain instead of quotient and remainder variables (see [`wrap_range`]).
const MAX_ITE_WRAPS: i128 = 8;

/// `v` wrapped into `[ty_min, ty_min + n)` (`n = 2^bits`) when `v` is known to lie in
/// `[lo, hi]` and that range meets at most `MAX_ITE_WRAPS` multiples of `n`: the result is
/// `v - k*n` for the one `k` that lands in range, chosen by an `ite` chain. Exact like the
/// quotient form and linear, but with nothing to project: Z3 4.8's `qe` spent minutes on
/// `exists q r. 2*y = 4294967296*q + r /\ 0 <= r < 4294967296 /\ ...` (unsigned `y *= 2`).
fn wrap_range(v: &Term, (lo, hi): (i128, i128), ty_min: i128, n: i128) -> Option<Term> {
    let (kmin, kmax) = ((lo - ty_min).div_euclid(n), (hi - ty_min).div_euclid(n));
    if kmax - kmin >= MAX_ITE_WRAPS {
        return None;
    }
    let shifted = |k: i128| Term::sub(v.clone(), big(k * n));
    let mut out = shifted(kmin);
    for k in kmin + 1..=kmax {
        out = Term::ite(Term::ge(v.clone(), big(ty_min + k * n)), shifted(k), out);
    }
    Some(out)
}

fn pow2(k: u32) -> i128 {
    1i128 << k
}

impl<'c> Encoder<'c> {
    pub fn new(cfa: &'c Cfa, encoding: Encoding) -> Encoder<'c> {
        Encoder { cfa, encoding }
    }

    pub fn sort(&self, ty: IntType) -> Sort {
        match self.encoding {
            Encoding::Int => Sort::Int,
            Encoding::Bv => Sort::BitVec(ty.bits()),
        }
    }

    fn slot_type(&self, s: Slot) -> IntType {
        if s == AUX {
            IntType::LLONG
        } else {
            self.cfa.var(s.var).ty
        }
    }

    fn slot_name(&self, s: Slot, idx: u32) -> String {
        if s == AUX {
            format!("__aux#{idx}")
        } else {
            indexed_name(self.cfa, s, idx)
        }
    }

    /// The SMT constant of `s` at index `idx`.
    pub fn symbol(&self, s: Slot, idx: u32) -> Term {
        Term::new_var(self.slot_name(s, idx), self.sort(self.slot_type(s)))
    }

    /// `lo <= t <= hi` for the Int encoding; `true` for bit-vectors.
    pub fn range(&self, t: &Term, ty: IntType) -> Term {
        match self.encoding {
            Encoding::Int => Term::and2(
                Term::le(big(ty.min_value()), t.clone()),
                Term::le(t.clone(), big(ty.max_value())),
            ),
            Encoding::Bv => Term::tt(),
        }
    }

    /// A literal of type `ty`.
    pub fn constant(&self, ty: IntType, v: i128) -> Term {
        match self.encoding {
            Encoding::Int => big(ty.wrap(v)),
            Encoding::Bv => Term::bv(ty.to_unsigned().wrap(v) as u128, ty.bits()),
        }
    }

    fn zero(&self, ty: IntType) -> Term {
        self.constant(ty, 0)
    }

    /// `v` converted to `to` where `v` has type `from` (C11 6.3.1.3, wrapping).
    pub fn convert(&self, b: &mut Builder, v: Term, from: IntType, to: IntType) -> Term {
        if to.kind == IntKind::Bool {
            let nz = Term::not(Term::eq(v, self.zero(from)));
            return Term::ite(nz, self.constant(to, 1), self.constant(to, 0));
        }
        match self.encoding {
            Encoding::Int => {
                if to.min_value() <= from.min_value() && from.max_value() <= to.max_value() {
                    v
                } else {
                    self.wrap_int(b, v, (from.min_value(), from.max_value()), to)
                }
            }
            Encoding::Bv => {
                let (fw, tw) = (from.bits(), to.bits());
                if fw == tw {
                    v
                } else if tw > fw {
                    let op = if from.signed {
                        Op::SignExtend(tw - fw)
                    } else {
                        Op::ZeroExtend(tw - fw)
                    };
                    Term::apply(op, vec![v])
                } else {
                    Term::apply(Op::Extract(tw - 1, 0), vec![v])
                }
            }
        }
    }

    /// Exact wrap of an integer `v` in `range` into the range of `ty`.
    fn wrap_int(&self, b: &mut Builder, v: Term, range: (i128, i128), ty: IntType) -> Term {
        let n = pow2(ty.bits());
        if let Some(w) = wrap_range(&v, range, ty.min_value(), n) {
            return w;
        }
        if ty.signed {
            let h = pow2(ty.bits() - 1);
            let (_, r) = self.divmod_const(b, Term::add2(v, big(h)), n);
            Term::sub(r, big(h))
        } else {
            self.divmod_const(b, v, n).1
        }
    }

    /// Euclidean quotient and remainder of `x` by the positive constant `m`, through fresh
    /// integer variables q and r with `x = m*q + r` and `0 <= r < m`: linear and exact (q and r are
    /// determined by x), so Farkas interpolation applies where SMT's `div`/`mod` would not.
    fn divmod_const(&self, b: &mut Builder, x: Term, m: i128) -> (Term, Term) {
        debug_assert!(m > 0);
        if let Some(v) = x.as_int().and_then(|v| i128::try_from(v).ok()) {
            return (big(v.div_euclid(m)), big(v.rem_euclid(m)));
        }
        if m == 1 {
            return (x, big(0));
        }
        // The remainder gets its own variable too: `x = m*q + r` with bounds on r alone keeps
        // q in one equality, which Z3's `qe` eliminates at once (with `r` spelled `x - m*q` in
        // three atoms, Z3 4.8's `qe` ran out of its resource limit on one-line formulas).
        let q = b.aux_int();
        let r = b.aux_int();
        b.constraints.push(Term::eq(
            x,
            Term::add2(Term::mul(big(m), q.clone()), r.clone()),
        ));
        b.constraints.push(Term::le(big(0), r.clone()));
        b.constraints.push(Term::le(r.clone(), big(m - 1)));
        (q, r)
    }

    /// C's truncating `/` and `%` by a nonzero constant `c` (C11 6.5.5p6): from the Euclidean
    /// quotient q and remainder r by |c|, trunc = q (+1 when x < 0 and r != 0).
    fn c_divmod_const(&self, b: &mut Builder, x: Term, c: i128) -> (Term, Term) {
        let m = c.abs();
        let (q, r) = self.divmod_const(b, x.clone(), m);
        let exact = Term::or2(Term::ge(x, big(0)), Term::eq(r.clone(), big(0)));
        let quot = Term::ite(exact.clone(), q.clone(), Term::add2(q, big(1)));
        let rem = Term::ite(exact, r.clone(), Term::sub(r, big(m)));
        let quot = if c < 0 { Term::neg(quot) } else { quot };
        (quot, rem)
    }

    /// The Boolean `e != 0`, with comparisons and logical operators translated directly.
    pub fn cond(&self, b: &mut Builder, e: &Expr) -> Term {
        match &e.kind {
            ExprKind::Const(v) => Term::bool(*v != 0),
            ExprKind::Unary(UnOp::LogNot, a) => Term::not(self.cond(b, a)),
            ExprKind::Binary(BinOp::LogAnd, x, y) => Term::and2(self.cond(b, x), self.cond(b, y)),
            ExprKind::Binary(BinOp::LogOr, x, y) => Term::or2(self.cond(b, x), self.cond(b, y)),
            ExprKind::Binary(op, x, y) if op.is_comparison() => {
                let (tx, ty) = (self.expr(b, x), self.expr(b, y));
                self.compare(*op, x.ty, tx, ty)
            }
            _ => {
                let v = self.expr(b, e);
                Term::not(Term::eq(v, self.zero(e.ty)))
            }
        }
    }

    fn compare(&self, op: BinOp, ty: IntType, a: Term, b: Term) -> Term {
        match (self.encoding, op) {
            (_, BinOp::Eq) => Term::eq(a, b),
            (_, BinOp::Ne) => Term::not(Term::eq(a, b)),
            (Encoding::Int, BinOp::Lt) => Term::lt(a, b),
            (Encoding::Int, BinOp::Le) => Term::le(a, b),
            (Encoding::Int, BinOp::Gt) => Term::gt(a, b),
            (Encoding::Int, BinOp::Ge) => Term::ge(a, b),
            (Encoding::Bv, op) => {
                let o = match (op, ty.signed) {
                    (BinOp::Lt, true) => Op::BvSlt,
                    (BinOp::Le, true) => Op::BvSle,
                    (BinOp::Gt, true) => Op::BvSgt,
                    (BinOp::Ge, true) => Op::BvSge,
                    (BinOp::Lt, false) => Op::BvUlt,
                    (BinOp::Le, false) => Op::BvUle,
                    (BinOp::Gt, false) => Op::BvUgt,
                    _ => Op::BvUge,
                };
                Term::bv2(o, a, b)
            }
            _ => unreachable!("not a comparison"),
        }
    }

    fn bool_value(&self, c: Term, ty: IntType) -> Term {
        Term::ite(c, self.constant(ty, 1), self.constant(ty, 0))
    }

    /// The value of `e` (of type `e.ty`).
    pub fn expr(&self, b: &mut Builder, e: &Expr) -> Term {
        match &e.kind {
            ExprKind::Const(v) => self.constant(e.ty, *v),
            ExprKind::Var(v) => {
                let slot = b.read_frames.slot(self.cfa, *v);
                b.read(self, slot)
            }
            ExprKind::Cast { operand, .. } => {
                let v = self.expr(b, operand);
                self.convert(b, v, operand.ty, e.ty)
            }
            ExprKind::Ite(c, x, y) => {
                let c = self.cond(b, c);
                let (x, y) = (self.expr(b, x), self.expr(b, y));
                Term::ite(c, x, y)
            }
            ExprKind::Unary(UnOp::LogNot, _)
            | ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, _, _) => {
                let c = self.cond(b, e);
                self.bool_value(c, e.ty)
            }
            ExprKind::Binary(op, _, _) if op.is_comparison() => {
                let c = self.cond(b, e);
                self.bool_value(c, e.ty)
            }
            ExprKind::Unary(op, a) => {
                let x = self.expr(b, a);
                match self.encoding {
                    Encoding::Bv => Term::apply(
                        if *op == UnOp::Neg {
                            Op::BvNeg
                        } else {
                            Op::BvNot
                        },
                        vec![x],
                    ),
                    Encoding::Int => match (op, e.ty.signed) {
                        // Checked: where the check passes, -x is exact.
                        (UnOp::Neg, true) if self.unwrapped(e.ty) => Term::neg(x),
                        (UnOp::Neg, true) => {
                            // -INT_MIN wraps to INT_MIN.
                            let r = value_range(a);
                            self.wrap_if_needed(b, Term::neg(x), (-r.1, -r.0), e.ty)
                        }
                        (UnOp::Neg, false) => Term::ite(
                            Term::eq(x.clone(), big(0)),
                            big(0),
                            Term::sub(big(pow2(e.ty.bits())), x),
                        ),
                        (_, true) => Term::sub(Term::neg(x), big(1)),
                        (_, false) => Term::sub(big(pow2(e.ty.bits()) - 1), x),
                    },
                }
            }
            ExprKind::Binary(op, x, y) => {
                let (tx, ty_) = (self.expr(b, x), self.expr(b, y));
                match self.encoding {
                    Encoding::Bv => self.bv_binary(*op, e.ty, x.ty, y.ty, tx, ty_),
                    Encoding::Int => {
                        let ranges = (value_range(x), value_range(y));
                        self.int_binary(b, *op, e.ty, tx, ty_, y.as_const(), ranges)
                    }
                }
            }
        }
    }

    fn bv_binary(
        &self,
        op: BinOp,
        ty: IntType,
        xt: IntType,
        yt: IntType,
        x: Term,
        y: Term,
    ) -> Term {
        let s = ty.signed;
        let o = match op {
            BinOp::Add => Op::BvAdd,
            BinOp::Sub => Op::BvSub,
            BinOp::Mul => Op::BvMul,
            BinOp::Div => {
                if s {
                    Op::BvSdiv
                } else {
                    Op::BvUdiv
                }
            }
            BinOp::Rem => {
                if s {
                    Op::BvSrem
                } else {
                    Op::BvUrem
                }
            }
            BinOp::BitAnd => Op::BvAnd,
            BinOp::BitOr => Op::BvOr,
            BinOp::BitXor => Op::BvXor,
            BinOp::Shl | BinOp::Shr => {
                // The shift amount has its own promoted type; bring it to the left width.
                // Out-of-range amounts are undefined behaviour in C.
                let amount = if yt.bits() == xt.bits() {
                    y
                } else if yt.bits() > xt.bits() {
                    Term::apply(Op::Extract(xt.bits() - 1, 0), vec![y])
                } else {
                    Term::apply(Op::ZeroExtend(xt.bits() - yt.bits()), vec![y])
                };
                let o = match (op, s) {
                    (BinOp::Shl, _) => Op::BvShl,
                    (_, true) => Op::BvAshr,
                    _ => Op::BvLshr,
                };
                return Term::bv2(o, x, amount);
            }
            _ => unreachable!("handled elsewhere: {op:?}"),
        };
        Term::bv2(o, x, y)
    }

    /// Whether signed `+`, `-`, `*` and `-x` of type `ty` are encoded without wrap-around:
    /// in a CFA with overflow checks, for the types the checks cover.
    fn unwrapped(&self, ty: IntType) -> bool {
        self.cfa.overflow_checked && crate::cfa::transform::overflow::checked_type(ty)
    }

    /// `v`, whose mathematical value lies in `raw`, wrapped into `ty` if `raw` leaves it.
    fn wrap_if_needed(&self, b: &mut Builder, v: Term, raw: (i128, i128), ty: IntType) -> Term {
        if ty.contains_range(raw) {
            v
        } else {
            self.wrap_int(b, v, raw, ty)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn int_binary(
        &self,
        b: &mut Builder,
        op: BinOp,
        ty: IntType,
        x: Term,
        y: Term,
        yc: Option<i128>,
        (rx, ry): ((i128, i128), (i128, i128)),
    ) -> Term {
        let n = pow2(ty.bits());
        let unsigned = !ty.signed;
        // Operations whose result provably stays in range need no wrap (both signednesses).
        let raw = raw_range(op, rx, ry);
        let fits = raw.is_some_and(|r| ty.contains_range(r));
        match op {
            BinOp::Add if fits => Term::add2(x, y),
            BinOp::Sub if fits => Term::sub(x, y),
            BinOp::Mul if fits => Term::mul(x, y),
            BinOp::Add if unsigned => {
                let s = Term::add2(x, y);
                Term::ite(Term::ge(s.clone(), big(n)), Term::sub(s.clone(), big(n)), s)
            }
            BinOp::Sub if unsigned => {
                let d = Term::sub(x, y);
                Term::ite(
                    Term::lt(d.clone(), big(0)),
                    Term::add2(d.clone(), big(n)),
                    d,
                )
            }
            BinOp::Mul if unsigned => {
                // A constant factor bounds the product: [0, c*(n-1)].
                let c = yc.or_else(|| x.as_int().and_then(|v| i128::try_from(v).ok()));
                let hi = c.filter(|c| *c >= 0).and_then(|c| c.checked_mul(n - 1));
                let range = raw.unwrap_or((0, hi.unwrap_or(i128::MAX / 2)));
                self.wrap_int(b, Term::mul(x, y), range, ty)
            }
            // Signed `+`, `-`, `*` wrap (two's complement, like the concrete semantics): an
            // `ite` chain over the few multiples of 2^w a sum can cross, quotient and remainder
            // variables for a product of unbounded factors.
            // With overflow checks in the CFA, the checked operations are exact where the
            // checks pass (crate::cfa::transform::overflow).
            BinOp::Add if self.unwrapped(ty) => Term::add2(x, y),
            BinOp::Sub if self.unwrapped(ty) => Term::sub(x, y),
            BinOp::Mul if self.unwrapped(ty) => Term::mul(x, y),
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let t = match op {
                    BinOp::Add => Term::add2(x, y),
                    BinOp::Sub => Term::sub(x, y),
                    _ => Term::mul(x, y),
                };
                let raw = raw.unwrap_or((i128::MIN / 4, i128::MAX / 4));
                self.wrap_int(b, t, raw, ty)
            }
            // Operands of unsigned type are non-negative: Euclidean = truncating.
            BinOp::Div if unsigned && yc.is_some_and(|c| c > 0) => {
                self.divmod_const(b, x, yc.unwrap_or(1)).0
            }
            BinOp::Rem if unsigned && yc.is_some_and(|c| c > 0) => {
                self.divmod_const(b, x, yc.unwrap_or(1)).1
            }
            BinOp::Div if unsigned => Term::div(x, y),
            BinOp::Rem if unsigned => Term::modulo(x, y),
            // Signed `/` overflows only for INT_MIN / -1, whose result 2^(w-1) wraps to INT_MIN.
            BinOp::Div if yc.is_some_and(|c| c != 0) => {
                let c = yc.unwrap_or(1);
                let q = self.c_divmod_const(b, x, c).0;
                if c == -1 {
                    self.wrap_if_needed(b, q, (-rx.1, -rx.0), ty)
                } else {
                    q
                }
            }
            BinOp::Rem if yc.is_some_and(|c| c != 0) => {
                self.c_divmod_const(b, x, yc.unwrap_or(1)).1
            }
            BinOp::Div => {
                let nx = Term::neg(x.clone());
                let ny = Term::neg(y.clone());
                let x_nonneg = Term::ge(x.clone(), big(0));
                let y_nonneg = Term::ge(y.clone(), big(0));
                let q = Term::ite(
                    x_nonneg,
                    Term::ite(
                        y_nonneg.clone(),
                        Term::div(x.clone(), y.clone()),
                        Term::neg(Term::div(x, ny.clone())),
                    ),
                    Term::ite(
                        y_nonneg,
                        Term::neg(Term::div(nx.clone(), y)),
                        Term::div(nx, ny),
                    ),
                );
                // Only INT_MIN / -1 leaves the range: 2^(w-1) wraps to INT_MIN.
                if rx.0 <= ty.min_value() && ry.0 <= -1 && -1 <= ry.1 {
                    self.wrap_int(b, q, (ty.min_value(), -ty.min_value()), ty)
                } else {
                    q
                }
            }
            BinOp::Rem => {
                // C: the sign of the dividend, magnitude |x| mod |y|; SMT mod is in [0, |y|).
                let x_nonneg = Term::ge(x.clone(), big(0));
                Term::ite(
                    x_nonneg,
                    Term::modulo(x.clone(), y.clone()),
                    Term::neg(Term::modulo(Term::neg(x), y)),
                )
            }
            BinOp::Shl => match yc {
                Some(c) if (0..i128::from(ty.bits())).contains(&c) => {
                    let p = Term::mul(x, big(pow2(c as u32)));
                    let f = pow2(c as u32);
                    // Signed: the two's-complement pattern shifted and wrapped, as gcc does
                    // (and the concrete semantics).
                    self.wrap_if_needed(b, p, (rx.0 * f, rx.1 * f), ty)
                }
                _ => self.approximate(b, ty, &[]),
            },
            BinOp::Shr => match yc {
                // Arithmetic shift of a two's-complement value = floor division.
                Some(c) if (0..i128::from(ty.bits())).contains(&c) => {
                    self.divmod_const(b, x, pow2(c as u32)).0
                }
                _ => self.approximate(b, ty, &[]),
            },
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => self.int_bitwise(b, op, ty, x, y, yc),
            _ => unreachable!("handled elsewhere: {op:?}"),
        }
    }

    /// Bitwise operators with an exact linear form for masks, otherwise over-approximated.
    fn int_bitwise(
        &self,
        b: &mut Builder,
        op: BinOp,
        ty: IntType,
        x: Term,
        y: Term,
        yc: Option<i128>,
    ) -> Term {
        let n = pow2(ty.bits());
        if let Some(c) = yc {
            let cu = ty.to_unsigned().wrap(c); // the bit pattern of c
            let all_ones = n - 1;
            // Low mask 2^k - 1: x & m = x mod 2^k; x | m = x - (x mod 2^k) + m.
            let k = (cu + 1).trailing_zeros();
            if cu + 1 == pow2(k) && k <= ty.bits() {
                let low = self.divmod_const(b, x.clone(), pow2(k)).1;
                return match op {
                    // All ones (`x & -1`, `x & ~0`): the value of x itself. `x mod 2^n` would
                    // be the bit pattern read as unsigned, wrong for a negative signed x
                    // (C11 6.5.10: the result has the type of the converted operands).
                    BinOp::BitAnd if cu == all_ones => x,
                    BinOp::BitAnd => low,
                    BinOp::BitOr => {
                        let r = Term::add2(Term::sub(x, low), big(cu));
                        if ty.signed {
                            self.wrap_int(b, r, (ty.min_value() - cu, ty.max_value() + cu), ty)
                        } else {
                            r
                        }
                    }
                    _ if cu == all_ones => {
                        // x ^ ~0 = ~x
                        if ty.signed {
                            Term::sub(Term::neg(x), big(1))
                        } else {
                            Term::sub(big(all_ones), x)
                        }
                    }
                    _ => self.approximate(b, ty, &[]),
                };
            }
            // High mask ~(2^k - 1): x & m = x - (x mod 2^k).
            let low_bits = all_ones - cu;
            let k = (low_bits + 1).trailing_zeros();
            if op == BinOp::BitAnd && low_bits + 1 == pow2(k) {
                let low = self.divmod_const(b, x.clone(), pow2(k)).1;
                return Term::sub(x, low);
            }
        }
        // Sound bounds for non-negative operands (unsigned types).
        let mut bounds = Vec::new();
        if !ty.signed {
            match op {
                BinOp::BitAnd => bounds.push((Op::Le, x.clone())), // r <= x, r <= y
                BinOp::BitOr => bounds.push((Op::Ge, x.clone())),
                _ => {}
            }
            match op {
                BinOp::BitAnd => bounds.push((Op::Le, y.clone())),
                BinOp::BitOr => bounds.push((Op::Ge, y.clone())),
                _ => {}
            }
            if op != BinOp::BitAnd {
                bounds.push((Op::Le, Term::add2(x, y)));
            }
        }
        self.approximate(b, ty, &bounds)
    }

    /// A fresh value of type `ty` related to others by `bounds` (`r op t`).
    fn approximate(&self, b: &mut Builder, ty: IntType, bounds: &[(Op, Term)]) -> Term {
        b.approximated = true;
        let r = b.aux_int();
        b.constraints.push(self.range(&r, ty));
        for (op, t) in bounds {
            b.constraints
                .push(Term::apply(op.clone(), vec![r.clone(), t.clone()]));
        }
        r
    }

    /// Whether `auto` must choose bit-vectors: an edge that this encoding over-approximates
    /// (never for `Bv`), or one whose encoding is nonlinear (a product of variables, a
    /// division or remainder by a variable). Each edge's strongest postcondition is computed
    /// once outside any call context: both properties depend only on the edge's operations,
    /// not on the path before it. Nonlinear integer arithmetic is undecidable, and Z3's procedures for it do
    /// not all respect the resource limit (queries of `cpa fuzz` ran for minutes at
    /// `:rlimit 300000`); over bit-vectors the same operations are exact and decidable.
    pub fn needs_bits(&self) -> bool {
        let empty = PathFormula::empty(SsaMap::default());
        self.cfa.edges.iter().any(|e| {
            let pf = self.sp(&empty, e, &TopLevel(e.from), &TopLevel(e.to));
            pf.approximated || !pf.formula.nonlinear_subterms().is_empty()
        })
    }

    /// The strongest postcondition of `pf` along `edge`, from control state `from` to `to`.
    pub fn sp(
        &self,
        pf: &PathFormula,
        edge: &Edge,
        from: &(impl CallContext + ?Sized),
        to: &(impl CallContext + ?Sized),
    ) -> PathFormula {
        let read_frames = Frames::of(self.cfa, from);
        let write_frames = Frames::of(self.cfa, to);
        let mut b = Builder {
            ssa: pf.ssa.clone(),
            constraints: Vec::new(),
            approximated: pf.approximated,
            read_frames,
            write_frames,
            read_ranges: true,
        };
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
            EdgeKind::Assume { cond, truth } => {
                let c = self.cond(&mut b, cond);
                b.constraints.push(if *truth { c } else { Term::not(c) });
            }
            EdgeKind::Assign { lhs, rhs } => self.assign(&mut b, *lhs, Some(rhs)),
            EdgeKind::Declare { var, init } => self.assign(&mut b, *var, init.as_ref()),
            EdgeKind::Call { callee, args, .. } => {
                let values: Vec<Term> = args.iter().map(|a| self.expr(&mut b, a)).collect();
                let params = self.cfa.function(*callee).params.clone();
                for (p, v) in params.into_iter().zip(values) {
                    let slot = b.write_frames.slot(self.cfa, p);
                    let new = b.fresh(self, slot);
                    b.constraints.push(Term::eq(new, v));
                }
            }
            EdgeKind::ReturnValue { function, value } => {
                if let (Some(e), Some((_, rv))) = (value, self.cfa.function(*function).ret) {
                    let v = self.expr(&mut b, e);
                    let slot = b.write_frames.slot(self.cfa, rv);
                    let new = b.fresh(self, slot);
                    b.constraints.push(Term::eq(new, v));
                }
            }
            EdgeKind::Return { callee, assign, .. } => {
                if let (Some(target), Some((rt, rv))) = (assign, self.cfa.function(*callee).ret) {
                    let rslot = b.read_frames.slot(self.cfa, rv);
                    let value = b.read(self, rslot);
                    let tt = self.cfa.var(*target).ty;
                    let value = self.convert(&mut b, value, rt, tt);
                    let slot = b.write_frames.slot(self.cfa, *target);
                    let new = b.fresh(self, slot);
                    b.constraints.push(Term::eq(new, value));
                }
            }
        }
        let mut parts = vec![pf.formula.clone()];
        parts.extend(b.constraints);
        PathFormula {
            formula: Term::and(parts),
            ssa: b.ssa,
            approximated: b.approximated,
        }
    }

    fn assign(&self, b: &mut Builder, var: VarId, rhs: Option<&Rhs>) {
        let ty = self.cfa.var(var).ty;
        let value = match rhs {
            Some(Rhs::Expr(e)) => Some(self.convert_expr(b, e, ty)),
            Some(Rhs::Nondet { .. }) | None => None,
        };
        let slot = b.write_frames.slot(self.cfa, var);
        let new = b.fresh(self, slot);
        match value {
            Some(v) => b.constraints.push(Term::eq(new, v)),
            None => {
                let r = self.range(&new, ty);
                b.constraints.push(r);
            }
        }
    }

    fn convert_expr(&self, b: &mut Builder, e: &Expr, to: IntType) -> Term {
        let v = self.expr(b, e);
        if e.ty == to {
            v
        } else {
            self.convert(b, v, e.ty, to)
        }
    }

    /// `a ∨ b` with SSA unification: each side gets `x#max = x#own` for the variables the other
    /// side advanced further (ABE merge; the unifying-view paper's merge_P).
    pub fn merge(&self, a: &PathFormula, b: &PathFormula) -> PathFormula {
        let ssa = a.ssa.join(&b.ssa);
        let side = |p: &PathFormula| {
            let mut parts = vec![p.formula.clone()];
            for (slot, idx) in ssa.iter() {
                let own = p.ssa.get(slot);
                if own != Some(idx) {
                    let own_idx = own.unwrap_or(0);
                    let own_sym = self.symbol(slot, own_idx);
                    if own.is_none() && slot != AUX {
                        parts.push(self.range(&own_sym, self.slot_type(slot)));
                    }
                    if slot != AUX {
                        parts.push(Term::eq(self.symbol(slot, idx), own_sym));
                    }
                }
            }
            Term::and(parts)
        };
        PathFormula {
            formula: Term::or2(side(a), side(b)),
            ssa,
            approximated: a.approximated || b.approximated,
        }
    }
}

/// Mutable state while encoding one edge.
pub struct Builder {
    pub ssa: SsaMap,
    pub constraints: Vec<Term>,
    pub approximated: bool,
    pub read_frames: Frames,
    pub write_frames: Frames,
    /// Whether a first read adds its symbol's range to `constraints` (see [`Builder::read`]).
    read_ranges: bool,
}

impl Builder {
    pub fn new(ssa: SsaMap, frames: Frames) -> Builder {
        Builder {
            ssa,
            constraints: Vec::new(),
            approximated: false,
            read_frames: frames.clone(),
            write_frames: frames,
            read_ranges: true,
        }
    }

    /// A builder whose first reads add no range constraints: for a caller that substitutes
    /// values for the symbols read, whose ranges hold already (symbolic execution's values
    /// are literals or terms over identifiers of the variables' types). Building the ranges
    /// only to drop them was a sixth of symbolic execution's time on recursive programs.
    pub fn without_read_ranges(ssa: SsaMap, frames: Frames) -> Builder {
        Builder {
            read_ranges: false,
            ..Builder::new(ssa, frames)
        }
    }

    /// The current symbol of `s`; a slot never seen gets index 0, its (unconstrained) initial
    /// value, restricted to its type's range (unless built [`Builder::without_read_ranges`]).
    pub fn read(&mut self, enc: &Encoder, s: Slot) -> Term {
        match self.ssa.get(s) {
            Some(i) => enc.symbol(s, i),
            None => {
                self.ssa.set(s, 0);
                let t = enc.symbol(s, 0);
                if self.read_ranges {
                    let r = enc.range(&t, enc.slot_type(s));
                    self.constraints.push(r);
                }
                t
            }
        }
    }

    /// A fresh auxiliary integer (unique along a path: the counter is part of the SSA map).
    pub fn aux_int(&mut self) -> Term {
        let idx = self.ssa.get(AUX).map_or(1, |i| i + 1);
        self.ssa.set(AUX, idx);
        Term::new_var(format!("__aux#{idx}"), Sort::Int)
    }

    /// A new symbol for an assignment to `s`.
    pub fn fresh(&mut self, enc: &Encoder, s: Slot) -> Term {
        let idx = self.ssa.get(s).map_or(1, |i| i + 1);
        self.ssa.set(s, idx);
        enc.symbol(s, idx)
    }
}

#[cfg(test)]
mod tests {
    use super::{Encoding, EncodingChoice};
    use crate::frontend::parse_program;

    fn resolved(body: &str) -> Encoding {
        let src = format!("int main(void) {{ unsigned int x, y; int c; {body} return 0; }}");
        let cfa = parse_program("t.c", &src).expect("parses").cfa;
        EncodingChoice::Auto.resolve(&cfa)
    }

    #[test]
    fn auto_encoding_is_int_for_exact_linear_operations_and_bv_for_the_others() {
        // Masks and constant shifts have exact linear forms.
        assert_eq!(
            resolved("x = (x & 255u) + (y >> 8) + (x << 3);"),
            Encoding::Int
        );
        assert_eq!(resolved("x = x * 7u + x / 3u + x % 5u;"), Encoding::Int);
        // Nonlinear arithmetic: exact over integers, but undecidable there (and Z3 does not
        // bound all of its procedures for it by the resource limit).
        assert_eq!(resolved("x = x * y;"), Encoding::Bv);
        assert_eq!(resolved("x = 100u / y;"), Encoding::Bv);
        assert_eq!(resolved("c = c % c;"), Encoding::Bv);
        // A general `&`, a shift by a variable, `^` with a non-mask: over-approximated.
        assert_eq!(resolved("x = x & y;"), Encoding::Bv);
        assert_eq!(resolved("x = 1u << c;"), Encoding::Bv);
        assert_eq!(resolved("if ((x ^ 5u) == 0u) x = 1u;"), Encoding::Bv);
        // The explicit choices are never changed.
        let cfa = parse_program("t.c", "int main(void) { unsigned x, y; x = x & y; }")
            .expect("parses")
            .cfa;
        assert_eq!(EncodingChoice::Int.resolve(&cfa), Encoding::Int);
        assert_eq!(EncodingChoice::Bv.resolve(&cfa), Encoding::Bv);
    }
}
