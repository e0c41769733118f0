//! Exact rewrites of the engine's formulas into the forms a person writes: comparisons as
//! differences and bounds (`a - b ≤ -1` is `a < b`), negations pushed into comparisons,
//! strict pairs as `≠` and `=`, and the engine's wrap-around encoding recognised.

use super::sexp::{parse, Sx};
use std::rc::Rc;

/// `op(args)` rewritten into a simpler form that means exactly the same over the integers, if
/// there is one: `¬(a ≤ b)` is `a > b`, `¬¬p` is `p`, `¬(a = b)` is `a ≠ b`, `¬(a ∧ b)` of
/// comparisons is `¬a ∨ ¬b`, `a < b ∨ b < a` is `a ≠ b`, a comparison of a difference or a
/// bound as [`simpler_comparison`] reads it.
pub(super) fn rewritten(op: &str, args: &[Sx]) -> Option<Sx> {
    match (op, args) {
        ("not", [x]) => negation(x).or_else(|| negated_conjunction(x)),
        ("<=" | "<" | ">=" | ">" | "=", [l, r]) => simpler_comparison(op, l, r),
        ("or", [a, b]) => strict_pair(a, b)
            .map(|(p, q)| list("distinct", &p, &q))
            .or_else(|| tightened(false, args)),
        ("and", _) => tightened(true, args),
        ("or", _) => tightened(false, args),
        _ => None,
    }
}

/// A conjunction (`all`) or disjunction without its redundant bounds: of the bounds on one
/// linear term (`x ≥ 0 ∧ x ≥ 1`, `x - y ≤ 3 ∨ x - y ≤ 5`) only the tightest (in a
/// conjunction) or the weakest (in a disjunction) of each side is kept, at the place of the
/// first; a lower and an upper bound that meet read as `=` in a conjunction. Exact over the
/// integers; `None` where no bound is redundant or the bounds contradict (or, in a disjunction,
/// cover every value): those keep their form, so nothing surprising is hidden.
fn tightened(all: bool, args: &[Sx]) -> Option<Sx> {
    let mut bounds: Vec<Bounds> = Vec::new();
    let mut of_arg: Vec<Option<usize>> = vec![None; args.len()];
    for (i, a) in args.iter().enumerate() {
        let Some(Bound { terms, lo, hi }) = bound(a) else {
            continue;
        };
        if !all && lo.is_some() && hi.is_some() {
            continue; // an equality in a disjunction is not a half-line
        }
        let at = match bounds.iter().position(|b| b.terms == terms) {
            Some(at) => at,
            None => {
                bounds.push(Bounds {
                    terms,
                    first: i,
                    lo: None,
                    hi: None,
                    count: 0,
                });
                bounds.len() - 1
            }
        };
        let b = &mut bounds[at];
        // The tighter of two lower bounds is the larger: in a conjunction; the weaker in a
        // disjunction.
        let pick = |old: Option<i128>, new: Option<i128>, larger: bool| match (old, new) {
            (Some(o), Some(n)) if larger => Some(o.max(n)),
            (Some(o), Some(n)) => Some(o.min(n)),
            (o, n) => o.or(n),
        };
        b.lo = pick(b.lo, lo, all);
        b.hi = pick(b.hi, hi, !all);
        b.count += 1;
        of_arg[i] = Some(at);
    }
    if !bounds.iter().any(|b| b.shown(all) < b.count) {
        return None;
    }
    let mut out = vec![Sx::Atom(if all { "and" } else { "or" }.into())];
    for (i, a) in args.iter().enumerate() {
        let Some(at) = of_arg[i] else {
            out.push(a.clone());
            continue;
        };
        let b = &bounds[at];
        if b.shown(all) == b.count {
            out.push(a.clone());
            continue;
        }
        if b.first != i {
            continue;
        }
        let term = linear_term(&b.terms)?;
        match (b.lo, b.hi) {
            (Some(l), Some(h)) if l == h && all => out.push(list("=", &term, &number(l))),
            (Some(l), Some(h)) if (all && l > h) || (!all && l <= h.saturating_add(1)) => {
                return None
            }
            (lo, hi) => {
                if let Some(l) = lo {
                    out.push(list(">=", &term, &number(l)));
                }
                if let Some(h) = hi {
                    out.push(list("<=", &term, &number(h)));
                }
            }
        }
    }
    Some(if out.len() == 2 {
        out.pop()?
    } else {
        Sx::List(Rc::from(out))
    })
}

/// The comparison with its sides swapped (`a ≤ b` is `b ≥ a`; `=` stays).
fn flipped(op: &str) -> &'static str {
    match op {
        "<=" => ">=",
        "<" => ">",
        ">=" => "<=",
        ">" => "<",
        _ => "=",
    }
}

/// The integer `v` as SMT-LIB (`(- 3)` for -3).
fn number(v: i128) -> Sx {
    let n = Sx::Atom(v.unsigned_abs().to_string());
    if v < 0 {
        Sx::List(Rc::from(vec![Sx::Atom("-".into()), n]))
    } else {
        n
    }
}

/// A linear form's terms with their coefficients (the constant apart).
type Terms = std::collections::BTreeMap<String, i128>;

/// A comparison of a linear term with a constant, as bounds over the integers.
struct Bound {
    terms: Terms,
    lo: Option<i128>,
    hi: Option<i128>,
}

/// The bounds of one term in a conjunction or disjunction: the argument it was first bound
/// in, the bounds kept, and how many comparisons bound it.
struct Bounds {
    terms: Terms,
    first: usize,
    lo: Option<i128>,
    hi: Option<i128>,
    count: usize,
}

impl Bounds {
    /// How many comparisons the kept bounds take (`=` where they meet in a conjunction).
    fn shown(&self, all: bool) -> usize {
        if all && self.lo.is_some() && self.lo == self.hi {
            1
        } else {
            usize::from(self.lo.is_some()) + usize::from(self.hi.is_some())
        }
    }
}

/// A comparison of a linear term with a constant as its bounds over the integers (`x - y < 3`
/// is `x - y ≤ 2`; `-x ≤ -1` is `x ≥ 1`; `=` gives both), the terms' first coefficient
/// positive so that one term has one key.
fn bound(sx: &Sx) -> Option<Bound> {
    let Sx::List(items) = sx else { return None };
    let [Sx::Atom(op), l, r] = &items[..] else {
        return None;
    };
    if !matches!(op.as_str(), "<=" | "<" | ">=" | ">" | "=") {
        return None;
    }
    let mut budget = 2_000;
    let (mut terms, k) = difference(&linear(l, 0, &mut budget)?, &linear(r, 0, &mut budget)?);
    if terms.is_empty() {
        return None;
    }
    // terms + k op 0, read as terms op -k.
    let (mut op, mut c) = (op.as_str(), k.checked_neg()?);
    if terms.values().next().is_some_and(|v| *v < 0) {
        terms.values_mut().for_each(|v| *v = -*v);
        c = c.checked_neg()?;
        op = flipped(op);
    }
    let (lo, hi) = match op {
        "<=" => (None, Some(c)),
        "<" => (None, Some(c.checked_sub(1)?)),
        ">=" => (Some(c), None),
        ">" => (Some(c.checked_add(1)?), None),
        _ => (Some(c), Some(c)),
    };
    Some(Bound { terms, lo, hi })
}

/// The sum `c₁·t₁ + c₂·t₂ + …` of a linear form's terms.
fn linear_term(terms: &Terms) -> Option<Sx> {
    let mut sum = vec![Sx::Atom("+".into())];
    for (t, c) in terms {
        let t = parse(t)?;
        sum.push(match c {
            1 => t,
            -1 => Sx::List(Rc::from(vec![Sx::Atom("-".into()), t])),
            c => list("*", &Sx::Atom(c.to_string()), &t),
        });
    }
    Some(if sum.len() == 2 {
        sum.pop()?
    } else {
        Sx::List(Rc::from(sum))
    })
}

fn list(op: &str, a: &Sx, b: &Sx) -> Sx {
    Sx::List(Rc::from(vec![Sx::Atom(op.into()), a.clone(), b.clone()]))
}

/// `¬(a ∧ b ∧ …)` of comparisons as `¬a ∨ ¬b ∨ …` with each negation a comparison
/// (`¬(x ≠ y ∧ x < 2)` is `x = y ∨ x ≥ 2`).
fn negated_conjunction(x: &Sx) -> Option<Sx> {
    let Sx::List(items) = x else { return None };
    let [Sx::Atom(o), rest @ ..] = &items[..] else {
        return None;
    };
    if o != "and" || rest.len() < 2 {
        return None;
    }
    let mut or = vec![Sx::Atom("or".into())];
    for c in rest {
        or.push(negation(c)?);
    }
    Some(Sx::List(Rc::from(or)))
}

/// `(p, q)` when `sx` says `p < q`: as written (`p < q`, `q > p`), or as its [`negation`]
/// (`¬(p ≥ q)`) or [`simpler_comparison`] (`p - q ≤ -1`) reads it.
fn less_than(sx: &Sx) -> Option<(Sx, Sx)> {
    let Sx::List(items) = sx else { return None };
    match &items[..] {
        [Sx::Atom(o), p, q] if o == "<" => Some((p.clone(), q.clone())),
        [Sx::Atom(o), p, q] if o == ">" => Some((q.clone(), p.clone())),
        [Sx::Atom(o), x] if o == "not" => strictly(&negation(x)?),
        [Sx::Atom(o), l, r] => strictly(&simpler_comparison(o, l, r)?),
        _ => None,
    }
}

/// [`less_than`] of a comparison already in its simplest form.
fn strictly(sx: &Sx) -> Option<(Sx, Sx)> {
    match sx {
        Sx::List(c) => match &c[..] {
            [Sx::Atom(o), p, q] if o == "<" => Some((p.clone(), q.clone())),
            [Sx::Atom(o), p, q] if o == ">" => Some((q.clone(), p.clone())),
            _ => None,
        },
        Sx::Atom(_) => None,
    }
}

/// The comparison that holds exactly when `sx` does not, where `sx` is one (over integers):
/// `a ≤ b` for `a > b`, `a = b` for `a ≠ b` and for `a < b ∨ b < a`, `p` for `¬p`.
fn negation(sx: &Sx) -> Option<Sx> {
    let Sx::List(items) = sx else { return None };
    match &items[..] {
        [Sx::Atom(o), a, b] if negated(o).is_some() => Some(list(negated(o)?, a, b)),
        [Sx::Atom(o), a, b] if o == "=" => Some(list("distinct", a, b)),
        [Sx::Atom(o), a, b] if o == "distinct" => Some(list("=", a, b)),
        [Sx::Atom(o), x] if o == "not" => Some(x.clone()),
        [Sx::Atom(o), a, b] if o == "or" => strict_pair(a, b).map(|(p, q)| list("=", &p, &q)),
        _ => None,
    }
}

/// `(p, q)` when `a` and `b` say `p < q` and `q < p` (in either order).
fn strict_pair(a: &Sx, b: &Sx) -> Option<(Sx, Sx)> {
    let (p1, q1) = less_than(a)?;
    let (p2, q2) = less_than(b)?;
    (p1 == q2 && q1 == p2).then_some((p1, q1))
}

/// The comparison that holds exactly when `op` does not (over integers): `a ≤ b` for
/// `¬(a > b)`.
fn negated(op: &str) -> Option<&'static str> {
    Some(match op {
        "<=" => ">",
        "<" => ">=",
        ">=" => "<",
        ">" => "<=",
        _ => return None,
    })
}

/// `a op b` read the way a person writes it, when the comparison `l op r` (over integers:
/// SMT-LIB's `<=` and its kind compare `Int`s here; bit-vectors have their own operators) is
/// a difference of two terms or one term against a constant: `a - b ≤ -1` is `a < b`,
/// `-a + b ≤ -1` is `b < a`, `2 > x` is `x < 2`. Exact identities, so nothing is
/// approximated; `None` when the comparison is already in that form or is not of it.
fn simpler_comparison(op: &str, l: &Sx, r: &Sx) -> Option<Sx> {
    let given = op;
    let mut budget = 2_000;
    let d = difference(&linear(l, 0, &mut budget)?, &linear(r, 0, &mut budget)?);
    let term = |k: &str| parse(k);
    let (terms, k) = (&d.0, d.1);
    let (op, a, b): (&str, Sx, Sx) = match terms.iter().collect::<Vec<_>>()[..] {
        // a - b + k op 0, or -a + b + k op 0 (read as b - a + k op 0).
        [(x, cx), (y, cy)] if cx.abs() == 1 && *cy == -cx => {
            let (pos, neg) = if *cx == 1 { (x, y) } else { (y, x) };
            // pos - neg op -k: only when the constant folds into the operator.
            let op: &str = match (op, -k) {
                (o, 0) => o,
                ("<=", -1) => "<",
                ("<", 1) => "<=",
                (">=", 1) => ">",
                (">", -1) => ">=",
                _ => return None,
            };
            (op, term(pos)?, term(neg)?)
        }
        // c·x + k op 0 with c = ±1: x op -k, or x flipped(op) k.
        [(x, c)] if c.abs() == 1 => {
            let (op, bound) = if *c == 1 { (op, -k) } else { (flipped(op), k) };
            // x > -1 reads x ≥ 0.
            let (op, bound) = match (op, bound) {
                (">", b) if b < 0 => (">=", b + 1),
                other => other,
            };
            (op, term(x)?, number(bound))
        }
        _ => return None,
    };
    let out = Sx::List(Rc::from(vec![Sx::Atom(op.into()), a, b]));
    let text = |sx: &Sx| {
        let mut t = String::new();
        let mut budget = 4_000;
        key(sx, &mut t, &mut budget).map(|_| t)
    };
    let given = Sx::List(Rc::from(vec![Sx::Atom(given.into()), l.clone(), r.clone()]));
    let same = text(&out)? == text(&given)?;
    (!same).then_some(out)
}

/// A linear form: coefficients by opaque term, and a constant.
type Linear = (std::collections::BTreeMap<String, i128>, i128);

pub(super) fn literal(sx: &Sx) -> Option<i128> {
    match sx {
        Sx::Atom(a) => a.parse().ok(),
        Sx::List(items) => match &items[..] {
            [Sx::Atom(m), Sx::Atom(a)] if m == "-" => a.parse::<i128>().ok().map(|v| -v),
            _ => None,
        },
    }
}

/// The text of `sx` as a key, each node counted against `budget` (`None` once it is spent: a
/// shared subterm can make the tree far larger than the formula's text).
pub(super) fn key(sx: &Sx, out: &mut String, budget: &mut usize) -> Option<()> {
    *budget = budget.checked_sub(1)?;
    match sx {
        Sx::Atom(a) => out.push_str(a),
        Sx::List(items) => {
            out.push('(');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                key(x, out, budget)?;
            }
            out.push(')');
        }
    }
    Some(())
}

/// `sx` as a linear form over its non-linear parts (compared by their text), each node
/// counted against `budget`.
pub(super) fn linear(sx: &Sx, depth: usize, budget: &mut usize) -> Option<Linear> {
    *budget = budget.checked_sub(1)?;
    let opaque = |sx: &Sx, budget: &mut usize| {
        let mut text = String::new();
        key(sx, &mut text, budget)?;
        let mut m = std::collections::BTreeMap::new();
        m.insert(text, 1);
        Some((m, 0))
    };
    if let Some(v) = literal(sx) {
        return Some((Default::default(), v));
    }
    let Sx::List(items) = sx else {
        return opaque(sx, budget);
    };
    let Some((Sx::Atom(op), args)) = items.split_first() else {
        return opaque(sx, budget);
    };
    if depth > 50 {
        return opaque(sx, budget);
    }
    let scaled = |(m, c): Linear, k: i128| -> Linear {
        (
            m.into_iter()
                .map(|(t, v)| (t, v.saturating_mul(k)))
                .collect(),
            c.saturating_mul(k),
        )
    };
    let add = |(mut m, c): Linear, (n, d): Linear| -> Linear {
        for (t, v) in n {
            *m.entry(t).or_insert(0) += v;
        }
        m.retain(|_, v| *v != 0);
        (m, c.saturating_add(d))
    };
    Some(match (op.as_str(), args) {
        ("+", _) if !args.is_empty() => {
            let mut sum: Linear = Default::default();
            for a in args {
                sum = add(sum, linear(a, depth + 1, budget)?);
            }
            sum
        }
        ("-", [x]) => scaled(linear(x, depth + 1, budget)?, -1),
        ("-", [x, rest @ ..]) if !rest.is_empty() => {
            let mut acc = linear(x, depth + 1, budget)?;
            for a in rest {
                acc = add(acc, scaled(linear(a, depth + 1, budget)?, -1));
            }
            acc
        }
        ("*", [k, x]) | ("*", [x, k]) if literal(k).is_some() => {
            scaled(linear(x, depth + 1, budget)?, literal(k).unwrap_or(1))
        }
        _ => return opaque(sx, budget),
    })
}

pub(super) fn difference(a: &Linear, b: &Linear) -> Linear {
    let mut m = a.0.clone();
    for (t, v) in &b.0 {
        *m.entry(t.clone()).or_insert(0) -= v;
    }
    m.retain(|_, v| *v != 0);
    (m, a.1.saturating_sub(b.1))
}

/// The engine's encoding of a wrap-around (`encode.rs`, `wrap_range`): `ite(v ≥ T, v - 2^w, v)`
/// (overflow past the maximum, `T` = 2^(w-1) signed or 2^w unsigned) or `ite(v ≥ min, v,
/// v + 2^w)` (below the minimum), possibly simplified by the solver (`x + 1 ≥ 2^31` reads
/// `x ≥ 2^31 - 1`). Checked on linear forms, so a look-alike that is not the same value is
/// never hidden: `(w, v)` for `wrap_w(v)`.
pub(super) fn wrapped<'a>(c: &Sx, a: &'a Sx, b: &'a Sx) -> Option<Wrap<'a>> {
    let Sx::List(cond) = c else {
        return None;
    };
    let [Sx::Atom(ge), l, k] = &cond[..] else {
        return None;
    };
    if ge != ">=" {
        return None;
    }
    // Nodes the four linear forms may visit together.
    let mut budget = 2000;
    let mut lin = |x: &Sx| linear(x, 0, &mut budget);
    let guard = difference(&lin(l)?, &lin(k)?); // c is guard ≥ 0
    let (la, lb) = (lin(a)?, lin(b)?);
    let gap = difference(&lb, &la);
    if !gap.0.is_empty() {
        return None;
    }
    if gap.1 <= 0 {
        return None;
    }
    let bits = [8u32, 16, 32, 64]
        .into_iter()
        .find(|&w| gap.1 == 1i128 << w)?;
    let (n, half) = (1i128 << bits, 1i128 << (bits - 1));
    let shifted = |v: &Linear, t: i128| (v.0.clone(), v.1 - t);
    // Overflow past the maximum: then = else - n, guard ⇔ else ≥ T; below the minimum:
    // else = then + n, guard ⇔ then ≥ min. Both read as the same value (wrap(v) =
    // wrap(v + n)), so the shorter of the two is shown.
    let (signed_over, unsigned_over) = (shifted(&lb, half) == guard, shifted(&lb, n) == guard);
    let (signed_under, unsigned_under) = (shifted(&la, -half) == guard, shifted(&la, 0) == guard);
    let (over, under) = (signed_over || unsigned_over, signed_under || unsigned_under);
    // The type's values: the guard's threshold tells signed from unsigned.
    let (lo, hi) = if signed_over || signed_under {
        (-half, half - 1)
    } else {
        (0, n - 1)
    };
    let wrap = |value| Wrap {
        bits,
        value,
        lo,
        hi,
    };
    // The smaller constant reads better (`x + 1`, not `x - 4294967295`).
    match (over, under) {
        (true, true) if la.1.abs() < lb.1.abs() => Some(wrap(a)),
        (true, _) => Some(wrap(b)),
        (false, true) => Some(wrap(a)),
        (false, false) => None,
    }
}

/// A wrap-around `wrap_bits(value)` into the type's values `lo..=hi`.
pub(super) struct Wrap<'a> {
    pub bits: u32,
    pub value: &'a Sx,
    pub lo: i128,
    pub hi: i128,
}
