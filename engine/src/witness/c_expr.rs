//! Formulas over program variables as C expressions (the `c_expression` format of witness
//! invariants), exact under the program's C semantics (ILP32, wrap-around):
//!
//! - over mathematical integers (the `int` encoding): every value is computed in `long long`,
//!   and only where the ranges of all intermediate values, from the variables' types, stay
//!   within ±2^62, so no C operation overflows; Euclidean `div`/`mod` only for a non-negative
//!   dividend and a positive constant divisor (where C's truncating division agrees);
//! - over bit-vectors (the `bv` encoding): a bit-vector of width 8, 16, 32 or 64 is an unsigned
//!   C value of that width, arithmetic is done in `unsigned int` or `unsigned long long` (which
//!   wraps) and truncated back, signed comparisons convert to the signed type of the width.
//!
//! Memory: a cell of a named object is the C lvalue it is named by (`a[2]`, `s.x`); a
//! pointer appears only compared for equality with an address, written as the address of
//! what it points to (`p == &a[2]`, `p == 0`); cells of allocated objects have no C name.
//!
//! An atom that cannot be written this way (a variable not visible in the function, an
//! auxiliary value, an unsupported operation, a cell without a C name, a pointer used
//! otherwise) is weakened away: to `1` where it occurs positively, to `0` under a negation,
//! so the expression is implied by the formula and still holds wherever the formula does.

use crate::cfa::Cfa;
use crate::formula::Names;
use crate::frontend::invariant::visible_variables;
use crate::ir::{FuncId, IntType, VarId};
use num_bigint::BigInt;
use solver_bridge::term::{Op, Quantifier, Sort, Term, TermKind};
use std::collections::BTreeMap;

/// Largest magnitude of an intermediate `long long` value.
const LIMIT: i128 = 1 << 62;

/// The variables a formula may mention at one location, with their C names.
pub struct Scope<'a> {
    cfa: &'a Cfa,
    names: &'a Names,
    visible: BTreeMap<String, Option<VarId>>,
    /// Cells of allocated objects: no C expression names them.
    unnamed: std::collections::BTreeSet<VarId>,
}

/// A Boolean after weakening.
enum Weak {
    True,
    False,
    C(String),
}

impl<'a> Scope<'a> {
    pub fn new(cfa: &'a Cfa, names: &'a Names, function: FuncId) -> Scope<'a> {
        let unnamed = cfa
            .objects
            .iter()
            .filter(|o| o.heap)
            .flat_map(|o| o.cells.iter().map(|(_, v)| *v))
            .collect();
        Scope {
            cfa,
            names,
            visible: visible_variables(cfa, function),
            unnamed,
        }
    }

    /// `t` (a Boolean over unindexed program variables) as a C expression implied by it.
    pub fn to_c(&self, t: &Term) -> String {
        match self.weak(t, true) {
            Weak::True => "1".into(),
            Weak::False => "0".into(),
            Weak::C(s) => s,
        }
    }

    /// The variable a term names, with its type, when it is visible here under its name
    /// and holds an integer (a pointer is written only by [`Scope::pointer_equality`]).
    fn var(&self, name: &str) -> Option<(&'a str, IntType)> {
        let (id, name, ty) = self.any_var(name)?;
        (!self.cfa.var(id).pointer).then_some((name, ty))
    }

    /// The variable a term names, pointer or not, when C can name it here.
    fn any_var(&self, name: &str) -> Option<(VarId, &'a str, IntType)> {
        let slot = self.names.slot(name)?;
        if slot.instance != 0 || self.unnamed.contains(&slot.var) {
            return None;
        }
        let v = self.cfa.var(slot.var);
        match self.visible.get(&v.name) {
            Some(Some(id)) if *id == slot.var => Some((slot.var, v.name.as_str(), v.ty)),
            _ => None,
        }
    }

    /// `p == &a[2]` (or `!=`) for a pointer variable and a constant address of a cell or
    /// object with a C name (`0` for null).
    fn pointer_equality(&self, o: Cmp, a: &Term, b: &Term) -> Option<String> {
        if !matches!(o, Cmp::Eq | Cmp::Ne) {
            return None;
        }
        let constant = |t: &Term| -> Option<u64> {
            match t.kind() {
                TermKind::Int(n) => u64::try_from(n).ok(),
                TermKind::BitVec { value, .. } => u64::try_from(*value).ok(),
                _ => None,
            }
        };
        let (v, k) = match (a.kind(), b.kind()) {
            (TermKind::Var(v), _) => (v, constant(b)?),
            (_, TermKind::Var(v)) => (v, constant(a)?),
            _ => return None,
        };
        let (id, name, _) = self.any_var(&v.name)?;
        if !self.cfa.var(id).pointer {
            return None;
        }
        let target = if k == 0 {
            "0".to_string()
        } else {
            let t = self.cfa.describe_address(k)?;
            // Only `&` of a named cell or object: allocated objects have no C name.
            let named = self
                .cfa
                .objects
                .iter()
                .any(|o| !o.heap && k >= o.base && k <= o.base + o.size);
            if !named || !t.starts_with('&') || t.contains(" + ") {
                return None;
            }
            t
        };
        Some(format!("{name} {} {target}", o.symbol()))
    }

    fn weak(&self, t: &Term, positive: bool) -> Weak {
        match t.kind() {
            TermKind::Bool(b) => {
                if *b {
                    Weak::True
                } else {
                    Weak::False
                }
            }
            TermKind::App(Op::Not, a) => match a[0].kind() {
                TermKind::App(Op::And | Op::Or | Op::Not | Op::Implies, _) => {
                    match self.weak(&a[0], !positive) {
                        Weak::True => Weak::False,
                        Weak::False => Weak::True,
                        Weak::C(s) => Weak::C(format!("!({s})")),
                    }
                }
                _ => match self.exact(&a[0], true) {
                    Some(s) => Weak::C(s),
                    None if positive => Weak::True,
                    None => Weak::False,
                },
            },
            TermKind::App(op @ (Op::And | Op::Or), args) => {
                let and = *op == Op::And;
                let args = if and {
                    implied_away(args)
                } else {
                    args.to_vec()
                };
                let mut parts = Vec::new();
                for a in &args {
                    match (self.weak(a, positive), and) {
                        (Weak::True, true) | (Weak::False, false) => {}
                        (Weak::False, true) => return Weak::False,
                        (Weak::True, false) => return Weak::True,
                        (Weak::C(s), _) => parts.push(s),
                    }
                }
                if parts.is_empty() {
                    return if and { Weak::True } else { Weak::False };
                }
                if parts.len() == 1 {
                    return Weak::C(parts.pop().unwrap_or_default());
                }
                // Comparisons bind tighter than `&&`, `&&` tighter than `||`.
                let (sep, needs) = if and {
                    (" && ", &["||", "?"][..])
                } else {
                    (" || ", &["?"][..])
                };
                let parts: Vec<String> = parts
                    .into_iter()
                    .map(|p| {
                        if needs.iter().any(|n| p.contains(n)) || (!and && p.contains("&&")) {
                            format!("({p})")
                        } else {
                            p
                        }
                    })
                    .collect();
                Weak::C(parts.join(sep))
            }
            TermKind::App(Op::Implies, args) if args.len() == 2 => {
                let not_a = Term::not(args[0].clone());
                self.weak(&Term::or2(not_a, args[1].clone()), positive)
            }
            // `∃ ids. body` (the symbolic CPA's states) implies the part of `body` that does
            // not mention `ids`: its weakening, where atoms over bound identifiers (never
            // visible program variables) are dropped like any atom C cannot express.
            TermKind::Quant(Quantifier::Exists, bound, body)
                if positive && bound.iter().all(|v| self.var(&v.name).is_none()) =>
            {
                self.weak(body, true)
            }
            _ => match self.exact(t, false) {
                Some(s) => Weak::C(s),
                None if positive => Weak::True,
                None => Weak::False,
            },
        }
    }

    /// `t`, or its negation when `negate` (comparisons flip their operator), written exactly;
    /// `None` when it cannot be.
    fn exact(&self, t: &Term, negate: bool) -> Option<String> {
        let args = t.args();
        let TermKind::App(op, _) = t.kind() else {
            return match t.kind() {
                TermKind::Bool(b) => Some(if *b != negate { "1" } else { "0" }.into()),
                _ => None,
            };
        };
        let not = |s: String| if negate { format!("!({s})") } else { s };
        let cmp = |o: Cmp, reading: Reading| -> Option<String> {
            if args.len() == 2 {
                let o = if negate { o.negated() } else { o };
                return self.compare(o, reading, &args[0], &args[1]);
            }
            let pairs = args
                .windows(2)
                .map(|w| {
                    self.compare(o, reading, &w[0], &w[1])
                        .map(|s| format!("({s})"))
                })
                .collect::<Option<Vec<_>>>()?;
            Some(not(pairs.join(" && ")))
        };
        match op {
            Op::Not => self.exact(&args[0], !negate),
            Op::And | Op::Or => {
                let sep = if (*op == Op::And) != negate {
                    " && "
                } else {
                    " || "
                };
                let parts = args
                    .iter()
                    .map(|a| self.exact(a, negate).map(|s| format!("({s})")))
                    .collect::<Option<Vec<_>>>()?;
                Some(parts.join(sep))
            }
            Op::Implies if args.len() == 2 => Some(not(format!(
                "!({}) || ({})",
                self.exact(&args[0], false)?,
                self.exact(&args[1], false)?
            ))),
            Op::Xor if args.len() == 2 => Some(not(format!(
                "!({}) != !({})",
                self.exact(&args[0], false)?,
                self.exact(&args[1], false)?
            ))),
            Op::Eq if args[0].sort() == Sort::Bool => {
                let parts = args
                    .iter()
                    .map(|a| self.exact(a, false).map(|s| format!("!({s})")))
                    .collect::<Option<Vec<_>>>()?;
                let w: Vec<String> = parts
                    .windows(2)
                    .map(|w| format!("({} == {})", w[0], w[1]))
                    .collect();
                Some(not(w.join(" && ")))
            }
            Op::Ite if t.sort() == Sort::Bool => Some(not(format!(
                "({}) ? ({}) : ({})",
                self.exact(&args[0], false)?,
                self.exact(&args[1], false)?,
                self.exact(&args[2], false)?
            ))),
            Op::Distinct if args.len() == 2 => cmp(Cmp::Ne, Reading::Either),
            op if Cmp::of(op).is_some() => {
                let (o, reading) = Cmp::of(op)?;
                cmp(o, reading)
            }
            Op::Divisible(n) => {
                let a = self.int(&args[0])?;
                let sym = if negate { "!=" } else { "==" };
                Some(format!("{} % {n} {sym} 0", a.text))
            }
            _ => None,
        }
    }

    /// `a o b` for two integer terms, or two bit-vectors read as `reading` says.
    fn compare(&self, o: Cmp, reading: Reading, a: &Term, b: &Term) -> Option<String> {
        if let Some(s) = self.pointer_equality(o, a, b) {
            return Some(s);
        }
        let sym = o.symbol();
        match a.sort() {
            Sort::Int => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                // C's usual conversions keep both values, except an `unsigned int` against a
                // possibly negative `int`.
                let fix = |u: &IntC, other: &IntC| {
                    if u.ty == CTy::UInt && other.ty == CTy::Int && other.lo < 0 {
                        format!("(long long){}", u.text)
                    } else {
                        u.text.clone()
                    }
                };
                Some(format!("{} {sym} {}", fix(&x, &y), fix(&y, &x)))
            }
            Sort::BitVec(_) => {
                let (x, y) = (self.bv(a)?, self.bv(b)?);
                let signed = match reading {
                    Reading::Signed => true,
                    Reading::Unsigned => false,
                    // Equality holds in both readings alike: the one both sides have.
                    Reading::Either => x.signed && y.signed,
                };
                if signed {
                    Some(format!("{} {sym} {}", x.signed_text()?, y.signed_text()?))
                } else {
                    Some(format!(
                        "{} {sym} {}",
                        x.unsigned_text()?,
                        y.unsigned_text()?
                    ))
                }
            }
            Sort::Bool => None,
        }
    }

    /// An integer term as C, with the range of its values and its C type.
    fn int(&self, t: &Term) -> Option<IntC> {
        let c = |text: String, lo: i128, hi: i128, ty: CTy| {
            (lo >= -LIMIT && hi <= LIMIT).then_some(IntC { text, lo, hi, ty })
        };
        let int_range =
            |lo: i128, hi: i128| lo >= i128::from(i32::MIN) && hi <= i128::from(i32::MAX);
        match t.kind() {
            TermKind::Int(n) => {
                let v = i128::try_from(n)
                    .ok()
                    .filter(|v| i64::try_from(*v).is_ok())?;
                let c = |text, lo, hi, ty| Some(IntC { text, lo, hi, ty });
                if int_range(v, v) {
                    let text = if v < 0 {
                        format!("({v})")
                    } else {
                        v.to_string()
                    };
                    c(text, v, v, CTy::Int)
                } else {
                    c(format!("({v}LL)"), v, v, CTy::LL)
                }
            }
            TermKind::Var(v) => {
                let (name, ty) = self.var(&v.name)?;
                let (lo, hi) = (ty.min_value(), ty.max_value());
                if hi > i128::from(i64::MAX) {
                    // unsigned long long: no C type holds it and negative values alike.
                    return None;
                }
                let c = |text, lo, hi, ty| Some(IntC { text, lo, hi, ty });
                let cty = if int_range(lo, hi) {
                    CTy::Int
                } else if ty.bits() == 32 {
                    CTy::UInt
                } else {
                    CTy::LL
                };
                c(name.to_string(), lo, hi, cty)
            }
            TermKind::App(op, args) => match op {
                Op::Neg => {
                    let a = self.int(&args[0])?;
                    let (lo, hi) = (-a.hi, -a.lo);
                    if a.ty == CTy::Int && int_range(lo, hi) {
                        c(format!("(-{})", a.text), lo, hi, CTy::Int)
                    } else {
                        c(format!("(-{})", a.ll()), lo, hi, CTy::LL)
                    }
                }
                Op::Add | Op::Sub | Op::Mul => {
                    let sym = match op {
                        Op::Add => "+",
                        Op::Sub => "-",
                        _ => "*",
                    };
                    let mut acc = self.int(&args[0])?;
                    for b in &args[1..] {
                        let b = self.int(b)?;
                        let (lo, hi) = match op {
                            Op::Add => (acc.lo + b.lo, acc.hi + b.hi),
                            Op::Sub => (acc.lo - b.hi, acc.hi - b.lo),
                            _ => {
                                let ps = [
                                    acc.lo.checked_mul(b.lo)?,
                                    acc.lo.checked_mul(b.hi)?,
                                    acc.hi.checked_mul(b.lo)?,
                                    acc.hi.checked_mul(b.hi)?,
                                ];
                                (*ps.iter().min()?, *ps.iter().max()?)
                            }
                        };
                        acc = if acc.ty == CTy::Int && b.ty == CTy::Int && int_range(lo, hi) {
                            c(format!("({} {sym} {})", acc.text, b.text), lo, hi, CTy::Int)?
                        } else {
                            // In long long (the other operand converts without change).
                            let rhs = if b.ty == CTy::UInt { b.ll() } else { b.text };
                            c(format!("({} {sym} {rhs})", acc.ll()), lo, hi, CTy::LL)?
                        };
                    }
                    Some(acc)
                }
                Op::Div | Op::Mod => {
                    let a = self.int(&args[0])?;
                    let TermKind::Int(d) = args[1].kind() else {
                        return None;
                    };
                    let d = big(d)?;
                    // Euclidean and C division agree for a non-negative dividend.
                    if a.lo < 0 || d <= 0 || d > i128::from(i32::MAX) {
                        return None;
                    }
                    let (lo, hi, sym) = if *op == Op::Div {
                        (a.lo / d, a.hi / d, "/")
                    } else {
                        (0, (d - 1).min(a.hi), "%")
                    };
                    c(format!("({} {sym} {d})", a.text), lo, hi, a.ty)
                }
                Op::Ite => {
                    let cond = self.exact(&args[0], false)?;
                    let (a, b) = (self.int(&args[1])?, self.int(&args[2])?);
                    let (lo, hi) = (a.lo.min(b.lo), a.hi.max(b.hi));
                    if a.ty == b.ty {
                        let ty = a.ty;
                        c(format!("(({cond}) ? {} : {})", a.text, b.text), lo, hi, ty)
                    } else {
                        c(
                            format!("(({cond}) ? {} : {})", a.ll(), b.ll()),
                            lo,
                            hi,
                            CTy::LL,
                        )
                    }
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// A bit-vector term as C.
    fn bv(&self, t: &Term) -> Option<BvC> {
        let w = width(t)?;
        if w > 64 {
            return None;
        }
        let wide = if w <= 32 {
            "unsigned int"
        } else {
            "unsigned long long"
        };
        let args = t.args();
        // Arithmetic in `wide` wraps modulo 2^32 or 2^64; other widths are masked.
        let masked = |text: String| -> BvC {
            let text = if w == 32 || w == 64 {
                text
            } else {
                format!("({text} & {}U{})", mask(w), if w > 32 { "LL" } else { "" })
            };
            BvC::unsigned(text, w)
        };
        let cast_wide = |b: &BvC| -> Option<String> {
            let u = b.unsigned_text()?;
            let cast_already = b.signed && (w == 32 || w == 64);
            Some(if (b.exactly_wide || cast_already) && b.width == w {
                u
            } else {
                format!("({wide}){u}")
            })
        };
        match t.kind() {
            TermKind::BitVec { value, .. } => Some(BvC::literal(*value, w)),
            TermKind::Var(v) => {
                let (name, ty) = self.var(&v.name)?;
                if ty.bits() != w {
                    return None;
                }
                Some(BvC {
                    text: name.to_string(),
                    width: w,
                    signed: ty.signed,
                    exactly_wide: !ty.signed && (w == 32 || w == 64),
                })
            }
            TermKind::App(op, _) => {
                let constant = |a: &Term| match a.kind() {
                    TermKind::BitVec { value, .. } => Some(*value),
                    _ => None,
                };
                let fold = |sym: &str, wraps: bool| -> Option<BvC> {
                    let parts = args
                        .iter()
                        .map(|a| self.bv(a).and_then(|b| cast_wide(&b)))
                        .collect::<Option<Vec<_>>>()?;
                    let text = format!("({})", parts.join(&format!(" {sym} ")));
                    Some(if wraps {
                        masked(text)
                    } else {
                        let mut b = BvC::unsigned(text, w);
                        b.exactly_wide = w == 32 || w == 64;
                        b
                    })
                };
                match op {
                    Op::BvAdd => fold("+", true),
                    Op::BvSub => fold("-", true),
                    Op::BvMul => fold("*", true),
                    Op::BvAnd => fold("&", false),
                    Op::BvOr => fold("|", false),
                    Op::BvXor => fold("^", false),
                    Op::BvNeg => {
                        let a = cast_wide(&self.bv(&args[0])?)?;
                        Some(masked(format!("(0U - {a})")))
                    }
                    Op::BvNot => {
                        let a = cast_wide(&self.bv(&args[0])?)?;
                        Some(masked(format!("(~{a})")))
                    }
                    Op::BvUdiv | Op::BvUrem if constant(&args[1]).is_some_and(|d| d != 0) => {
                        fold(if *op == Op::BvUdiv { "/" } else { "%" }, false)
                    }
                    Op::BvSdiv | Op::BvSrem
                        if constant(&args[1]).is_some_and(|d| d != 0 && d != mask(w)) =>
                    {
                        let (a, b) = (self.bv(&args[0])?, self.bv(&args[1])?);
                        let sym = if *op == Op::BvSdiv { "/" } else { "%" };
                        Some(BvC::signed(
                            format!("({} {sym} {})", a.signed_text()?, b.signed_text()?),
                            w,
                        ))
                    }
                    Op::BvShl | Op::BvLshr | Op::BvAshr => {
                        let k = constant(&args[1])?;
                        let a = self.bv(&args[0])?;
                        if k >= u128::from(w) {
                            return (*op != Op::BvAshr).then(|| BvC::literal(0, w));
                        }
                        match op {
                            Op::BvShl => Some(masked(format!("({} << {k})", cast_wide(&a)?))),
                            Op::BvLshr => {
                                Some(BvC::unsigned(format!("({} >> {k})", cast_wide(&a)?), w))
                            }
                            _ => Some(BvC::signed(format!("({} >> {k})", a.signed_text()?), w)),
                        }
                    }
                    _ => self.bv_bits(op, args, w),
                }
            }
            _ => None,
        }
    }

    /// Extensions, extraction, concatenation and `ite` of bit-vectors as C (the rest of
    /// [`Self::bv`]).
    fn bv_bits(&self, op: &Op, args: &[Term], w: u32) -> Option<BvC> {
        match op {
            Op::ZeroExtend(_) => {
                let a = self.bv(&args[0])?;
                let mut b = BvC::unsigned(a.unsigned_text()?, w);
                b.exactly_wide = a.exactly_wide && a.width == w;
                Some(b)
            }
            Op::SignExtend(_) => {
                let a = self.bv(&args[0])?;
                Some(BvC::signed(a.signed_text()?, w))
            }
            Op::Extract(hi, lo) => {
                let a = self.bv(&args[0])?;
                if *lo == 0 && *hi + 1 == a.width {
                    return Some(a);
                }
                let from = if a.width <= 32 {
                    "unsigned int"
                } else {
                    "unsigned long long"
                };
                let shifted = if *lo == 0 {
                    format!("({from}){}", a.unsigned_text()?)
                } else {
                    format!("(({from}){} >> {lo})", a.unsigned_text()?)
                };
                let m = mask(w);
                Some(BvC::unsigned(
                    format!("({shifted} & {m}U{})", if w > 32 { "LL" } else { "" }),
                    w,
                ))
            }
            Op::Concat if args.len() == 2 => {
                let (a, b) = (self.bv(&args[0])?, self.bv(&args[1])?);
                Some(BvC::unsigned(
                    format!(
                        "(((unsigned long long){} << {}) | {})",
                        a.unsigned_text()?,
                        b.width,
                        b.unsigned_text()?
                    ),
                    w,
                ))
            }
            Op::Ite => {
                let cond = self.exact(&args[0], false)?;
                let (a, b) = (self.bv(&args[1])?, self.bv(&args[2])?);
                if a.signed && b.signed {
                    Some(BvC::signed(
                        format!("(({cond}) ? {} : {})", a.text, b.text),
                        w,
                    ))
                } else {
                    Some(BvC::unsigned(
                        format!(
                            "(({cond}) ? {} : {})",
                            a.unsigned_text()?,
                            b.unsigned_text()?
                        ),
                        w,
                    ))
                }
            }
            _ => None,
        }
    }
}

/// A comparison operator.
#[derive(Clone, Copy)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The comparison an SMT operator makes, and how it reads bit-vector operands.
    fn of(op: &Op) -> Option<(Cmp, Reading)> {
        Some(match op {
            Op::Eq => (Cmp::Eq, Reading::Either),
            Op::Le => (Cmp::Le, Reading::Either),
            Op::Lt => (Cmp::Lt, Reading::Either),
            Op::Ge => (Cmp::Ge, Reading::Either),
            Op::Gt => (Cmp::Gt, Reading::Either),
            Op::BvUle => (Cmp::Le, Reading::Unsigned),
            Op::BvUlt => (Cmp::Lt, Reading::Unsigned),
            Op::BvUge => (Cmp::Ge, Reading::Unsigned),
            Op::BvUgt => (Cmp::Gt, Reading::Unsigned),
            Op::BvSle => (Cmp::Le, Reading::Signed),
            Op::BvSlt => (Cmp::Lt, Reading::Signed),
            Op::BvSge => (Cmp::Ge, Reading::Signed),
            Op::BvSgt => (Cmp::Gt, Reading::Signed),
            _ => return None,
        })
    }

    fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }

    fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }
}

/// How a bit-vector comparison reads its operands.
#[derive(Clone, Copy)]
enum Reading {
    Signed,
    Unsigned,
    /// Equality: both readings agree.
    Either,
}

/// The C type of an integer expression's text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CTy {
    Int,
    UInt,
    LL,
}

/// An integer value as C text of type `ty` with values in `lo..=hi` (never overflowing).
struct IntC {
    text: String,
    lo: i128,
    hi: i128,
    ty: CTy,
}

impl IntC {
    /// The text as `long long`.
    fn ll(&self) -> String {
        if self.ty == CTy::LL {
            self.text.clone()
        } else {
            format!("(long long){}", self.text)
        }
    }
}

/// A bit-vector of `width` bits as C text: its value (after promotion) is the bit-vector read
/// as signed (`signed`, only for widths 8, 16, 32, 64) or as unsigned.
struct BvC {
    text: String,
    width: u32,
    signed: bool,
    /// The text's C type is exactly `unsigned int` (width 32) or `unsigned long long` (64).
    exactly_wide: bool,
}

impl BvC {
    fn unsigned(text: String, width: u32) -> BvC {
        BvC {
            text,
            width,
            signed: false,
            exactly_wide: false,
        }
    }

    fn signed(text: String, width: u32) -> BvC {
        BvC {
            text,
            width,
            signed: true,
            exactly_wide: false,
        }
    }

    fn literal(value: u128, width: u32) -> BvC {
        let text = if value <= i32::MAX as u128 {
            value.to_string()
        } else if value <= u128::from(u32::MAX) {
            format!("{value}U")
        } else {
            format!("{value}ULL")
        };
        BvC::unsigned(text, width)
    }

    fn unsigned_text(&self) -> Option<String> {
        if !self.signed {
            return Some(self.text.clone());
        }
        Some(format!("({}){}", unsigned_type(self.width)?, self.text))
    }

    fn signed_text(&self) -> Option<String> {
        if self.signed {
            return Some(self.text.clone());
        }
        let st = signed_type(self.width)?;
        // A literal's signed reading, written directly.
        if let Ok(v) = self.text.trim_end_matches(['U', 'L']).parse::<u128>() {
            let signed = if v >> (self.width - 1) & 1 == 1 {
                v as i128 - (1i128 << self.width)
            } else {
                v as i128
            };
            if signed >= i128::from(i32::MIN) && signed <= i128::from(i32::MAX) {
                return Some(if signed < 0 {
                    format!("({signed})")
                } else {
                    signed.to_string()
                });
            }
            return Some(format!("({signed}LL)"));
        }
        Some(format!("({st}){}", self.text))
    }
}

/// The conjuncts of `args` without the disequalities `v != d` that an equality `v == c`
/// among them (with another constant) implies.
fn implied_away(args: &[Term]) -> Vec<Term> {
    fn var_eq(t: &Term) -> Option<(&Term, &Term)> {
        let TermKind::App(Op::Eq, a) = t.kind() else {
            return None;
        };
        if a.len() != 2 {
            return None;
        }
        let lit = |x: &Term| matches!(x.kind(), TermKind::Int(_) | TermKind::BitVec { .. });
        match (&a[0], &a[1]) {
            (v, c) if lit(c) && !lit(v) => Some((v, c)),
            (c, v) if lit(c) && !lit(v) => Some((v, c)),
            _ => None,
        }
    }
    let eqs: Vec<(&Term, &Term)> = args.iter().filter_map(var_eq).collect();
    args.iter()
        .filter(|t| {
            let TermKind::App(Op::Not, a) = t.kind() else {
                return true;
            };
            match var_eq(&a[0]) {
                Some((v, d)) => !eqs.iter().any(|(w, c)| *w == v && *c != d),
                None => true,
            }
        })
        .cloned()
        .collect()
}

fn big(n: &BigInt) -> Option<i128> {
    i128::try_from(n).ok().filter(|v| v.abs() <= LIMIT)
}

fn width(t: &Term) -> Option<u32> {
    match t.sort() {
        Sort::BitVec(w) => Some(w),
        _ => None,
    }
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn unsigned_type(w: u32) -> Option<&'static str> {
    Some(match w {
        8 => "unsigned char",
        16 => "unsigned short",
        32 => "unsigned int",
        64 => "unsigned long long",
        _ => return None,
    })
}

fn signed_type(w: u32) -> Option<&'static str> {
    Some(match w {
        8 => "signed char",
        16 => "short",
        32 => "int",
        64 => "long long",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::Scope;
    use crate::formula::Names;
    use crate::frontend::parse_program;
    use solver_bridge::term::{Op, Sort, Term, Var};

    /// A symbolic state `∃ s. x = s ∧ s > 3 ∧ y = 2` is written as what C can say of it
    /// without `s` (`y == 2`, read as unsigned); its negation, which C cannot say, is
    /// weakened to `1`.
    #[test]
    fn an_existential_is_written_as_its_part_without_the_bound_identifiers() {
        let src = "int main(void) { int x = 0; int y = 2; while (x < 5) { x++; } return y; }";
        let cfa = parse_program("t.c", src).unwrap().cfa;
        let names = Names::new(&cfa);
        let main = cfa.nodes.iter().find(|n| n.loop_head).unwrap().function;
        let scope = Scope::new(&cfa, &names, main);
        let bv = Sort::BitVec(32);
        let s = Var::new("$s1", bv);
        let st = Term::var(s.clone());
        let x = Term::new_var("main::x", bv);
        let y = Term::new_var("main::y", bv);
        let body = Term::and(vec![
            Term::eq(x, st.clone()),
            Term::bv2(Op::BvSgt, st, Term::bv(3, 32)),
            Term::eq(y, Term::bv(2, 32)),
        ]);
        let state = Term::exists(vec![s], body).unwrap();
        assert_eq!(scope.to_c(&state), "(unsigned int)y == 2");
        assert_eq!(scope.to_c(&Term::not(state)), "1");
    }
}
