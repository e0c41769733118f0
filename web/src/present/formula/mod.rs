//! Formulas for reading: the engine's SMT-LIB text (`(and (>= |main::i#1| 4) ...)`) in the
//! usual mathematical notation (`i₁ ≥ 4 ∧ …`). Display only: anything this cannot read (an
//! excerpt cut by the engine, an unknown construct) is shown as it is.
//!
//! The work is bounded by the text's size, not by the formula's: a `let` shares a subterm, so
//! a text of 3,000 characters can stand for a tree of 2^100 nodes (nested disjunctions of
//! interpolants do that). The bound values are shared, not copied ([`Sx`] lists are
//! reference-counted), and the mathematical text stops at [`MAX_SHOWN`] characters.

mod ranges;
mod rewrite;
mod sexp;

pub use ranges::Ranges;
#[cfg(test)]
use rewrite::key;
use rewrite::{wrapped, Wrap};
#[cfg(test)]
use sexp::{parse, tokens};
use sexp::{parse_shown, split_index, Sx};

/// The longest text [`pretty`] returns (then cut with `…`).
pub const MAX_SHOWN: usize = 4000;

/// `|main::x#3|` → `x₃`; `|f::n|` → `f::n`; auxiliaries keep their names.
fn name(atom: &str) -> String {
    let (base, index) = split_index(atom.trim_matches('|'));
    let base = base.strip_prefix("main::").unwrap_or(base);
    match index {
        Some(i) => {
            let sub: String = i
                .chars()
                .map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c))
                .collect();
            format!("{base}{sub}")
        }
        None => base.to_string(),
    }
}

/// Binding strength: higher binds tighter.
fn prec(op: &str) -> u8 {
    match op {
        "=>" => 1,
        "or" => 2,
        "and" => 3,
        "not" => 4,
        "=" | "distinct" | "<" | "<=" | ">" | ">=" | "bvult" | "bvule" | "bvugt" | "bvuge"
        | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => 5,
        "bvor" => 6,
        "bvxor" => 7,
        "bvand" => 8,
        "bvshl" | "bvlshr" | "bvashr" => 9,
        "+" | "-" | "bvadd" | "bvsub" => 10,
        "*" | "div" | "mod" | "bvmul" | "bvudiv" | "bvsdiv" | "bvurem" | "bvsrem" => 11,
        _ => 12,
    }
}

fn infix(op: &str) -> Option<&'static str> {
    Some(match op {
        "=>" => " ⇒ ",
        "or" => " ∨ ",
        "and" => " ∧ ",
        "=" => " = ",
        "distinct" => " ≠ ",
        "<" => " < ",
        "<=" => " ≤ ",
        ">" => " > ",
        ">=" => " ≥ ",
        "bvult" => " <ᵤ ",
        "bvule" => " ≤ᵤ ",
        "bvugt" => " >ᵤ ",
        "bvuge" => " ≥ᵤ ",
        "bvslt" => " < ",
        "bvsle" => " ≤ ",
        "bvsgt" => " > ",
        "bvsge" => " ≥ ",
        "bvor" => " | ",
        "bvxor" => " ^ ",
        "bvand" => " & ",
        "bvshl" => " << ",
        "bvlshr" => " >>ᵤ ",
        "bvashr" => " >> ",
        "+" | "bvadd" => " + ",
        "-" | "bvsub" => " - ",
        "*" | "bvmul" => "·",
        "div" | "bvsdiv" => " / ",
        "bvudiv" => " /ᵤ ",
        "mod" | "bvsrem" => " % ",
        "bvurem" => " %ᵤ ",
        _ => return None,
    })
}

/// Substitutes `let` bindings (the engine prints shared subterms with `let`). A bound value is
/// shared where it is used, so `budget` counts the nodes of the text, and the result is a
/// DAG of that size however often the names are used.
fn unlet(sx: &Sx, env: &[(String, Sx)], budget: &mut usize) -> Option<Sx> {
    *budget = budget.checked_sub(1)?;
    match sx {
        Sx::Atom(a) => Some(
            env.iter()
                .rev()
                .find(|(n, _)| n == a)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| sx.clone()),
        ),
        Sx::List(items) => {
            if let [Sx::Atom(l), Sx::List(binds), body] = &items[..] {
                if l == "let" {
                    let mut env2 = env.to_vec();
                    for b in binds.iter() {
                        let Sx::List(pair) = b else {
                            return None;
                        };
                        let [Sx::Atom(n), v] = &pair[..] else {
                            return None;
                        };
                        // Parallel binding: values see the outer environment.
                        let v = unlet(v, env, budget)?;
                        env2.push((n.clone(), v));
                    }
                    return unlet(body, &env2, budget);
                }
            }
            items
                .iter()
                .map(|i| unlet(i, env, budget))
                .collect::<Option<Vec<_>>>()
                .map(|v| Sx::List(v.into()))
        }
    }
}

fn show(sx: &Sx, out: &mut String, outer: u8) {
    // Shared subterms make the tree larger than the text: stop once enough is shown.
    if out.len() > MAX_SHOWN {
        return;
    }
    match sx {
        Sx::Atom(a) => {
            match a.as_str() {
                "true" => out.push_str("true"),
                "false" => out.push_str("false"),
                a if a.starts_with("#b") => out.push_str(
                    &u128::from_str_radix(&a[2..], 2).map_or(a.to_string(), |v| v.to_string()),
                ),
                a if a.starts_with("#x") => out.push_str(
                    &u128::from_str_radix(&a[2..], 16).map_or(a.to_string(), |v| v.to_string()),
                ),
                a => out.push_str(&name(a)),
            };
        }
        Sx::List(items) => {
            let Some((Sx::Atom(op), args)) = items.split_first() else {
                // `((_ extract 7 0) x)` and the like: function syntax.
                show_call(items, out);
                return;
            };
            if let Some(r) = rewrite::rewritten(op, args) {
                show(&r, out, outer);
                return;
            }
            match (op.as_str(), args) {
                ("_", [Sx::Atom(v), _]) if v.starts_with("bv") => out.push_str(&v[2..]),
                ("-", [x]) => {
                    out.push('-');
                    show(x, out, 13);
                }
                ("not", [x]) => {
                    out.push('¬');
                    show(x, out, 13);
                }
                ("*", [Sx::Atom(m1), x]) if m1 == "-1" => {
                    out.push('-');
                    show(x, out, 13);
                }
                ("*", [Sx::List(m), x])
                    if m.len() == 2
                        && m[0] == Sx::Atom("-".into())
                        && m[1] == Sx::Atom("1".into()) =>
                {
                    out.push('-');
                    show(x, out, 13);
                }
                ("bvneg", [x]) => {
                    out.push('-');
                    show(x, out, 13);
                }
                ("bvnot", [x]) => {
                    out.push('~');
                    show(x, out, 13);
                }
                ("ite", [c, a, b]) => {
                    if let Some(Wrap { bits, value, .. }) = wrapped(c, a, b) {
                        out.push_str(&format!("wrap{bits}("));
                        show(value, out, 0);
                        out.push(')');
                        return;
                    }
                    let p = outer > 0;
                    if p {
                        out.push('(');
                    }
                    show(c, out, 1);
                    out.push_str(" ? ");
                    show(a, out, 1);
                    out.push_str(" : ");
                    show(b, out, 1);
                    if p {
                        out.push(')');
                    }
                }
                (op, args) if args.len() >= 2 && infix(op).is_some() => {
                    let p = prec(op);
                    let paren = p <= outer;
                    if paren {
                        out.push('(');
                    }
                    let sep = infix(op).unwrap_or(" ");
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 && op == "+" {
                            // x + -y reads x - y.
                            let mut term = String::new();
                            show(a, &mut term, p);
                            match term.strip_prefix('-') {
                                Some(rest) => {
                                    out.push_str(" - ");
                                    out.push_str(rest);
                                }
                                None => {
                                    out.push_str(sep);
                                    out.push_str(&term);
                                }
                            }
                            continue;
                        }
                        if i > 0 {
                            out.push_str(sep);
                        }
                        // Left-associative operators need parentheses on the right only; a
                        // conjunction inside a disjunction or an implication gets them anyway
                        // (easier to read than relying on precedence).
                        let inner = if op == "or" || op == "=>" {
                            prec("and")
                        } else if i == 0 {
                            p.saturating_sub(1).max(1)
                        } else {
                            p
                        };
                        show(a, out, inner);
                    }
                    if paren {
                        out.push(')');
                    }
                }
                ("and", []) => out.push_str("true"),
                ("or", []) => out.push_str("false"),
                ("and" | "or", [x]) => show(x, out, outer),
                _ => show_call(items, out),
            }
        }
    }
}

fn show_call(items: &[Sx], out: &mut String) {
    let Some((f, args)) = items.split_first() else {
        out.push_str("()");
        return;
    };
    match f {
        Sx::List(inner) => {
            // `(_ extract 7 0)` → `extract[7,0]`.
            let parts: Vec<String> = inner
                .iter()
                .filter_map(|x| match x {
                    Sx::Atom(a) if a != "_" => Some(a.clone()),
                    _ => None,
                })
                .collect();
            match parts.split_first() {
                Some((h, rest)) => out.push_str(&format!("{h}[{}]", rest.join(","))),
                None => out.push('?'),
            }
        }
        Sx::Atom(a) => out.push_str(&name(a)),
    }
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        show(a, out, 0);
    }
    out.push(')');
}

/// The formula in mathematical notation, or `smt` itself if it cannot be read.
pub fn pretty(smt: &str) -> String {
    pretty_at(smt, &Ranges::default())
}

/// [`pretty`], for a formula shown at a location where `ranges` hold: a wrap-around that
/// cannot happen there is shown as its value (`x + 1`, not `wrap32(x + 1)`); one that can
/// keeps its `wrap32(…)`, the visible mark.
pub fn pretty_at(smt: &str, ranges: &Ranges) -> String {
    let Some(sx) = parse_shown(smt) else {
        return smt.to_string();
    };
    let mut budget = 20_000;
    let Some(mut sx) = unlet(&sx, &[], &mut budget) else {
        return smt.to_string();
    };
    if !ranges.0.is_empty() {
        let mut budget = 20_000;
        if let Some(u) = ranges.unwrap(&sx, &mut budget) {
            sx = u;
        }
    }
    let mut out = String::new();
    show(&sx, &mut out, 0);
    cpa_engine::text::clip_to(out, MAX_SHOWN)
}

/// For the solver check of the tests: `smt` with the wrap-arounds that cannot happen under
/// `ranges` replaced (what [`pretty_at`] shows, as SMT-LIB) and the range of every variable
/// of `smt` that has one, as assertions; `None` when nothing is replaced or the text cannot
/// be read within the bounds.
#[cfg(test)]
pub(crate) fn unwrapped_smt(smt: &str, ranges: &Ranges) -> Option<(String, Vec<String>)> {
    let sx = parse(smt)?;
    let mut budget = 20_000;
    let sx = unlet(&sx, &[], &mut budget)?;
    let mut budget = 20_000;
    let u = ranges.unwrap(&sx, &mut budget)?;
    let text = |x: &Sx| {
        let mut t = String::new();
        let mut budget = 100_000;
        key(x, &mut t, &mut budget).map(|_| t)
    };
    let (before, after) = (text(&sx)?, text(&u)?);
    if before == after {
        return None;
    }
    let mut bounds: Vec<String> = tokens(smt)?
        .into_iter()
        .filter(|t| t.starts_with('|'))
        .filter_map(|t| {
            let (lo, hi) = ranges.of_atom(&t)?;
            Some(format!("(<= {} {t} {})", num_text(lo), num_text(hi)))
        })
        .collect();
    bounds.sort();
    bounds.dedup();
    Some((after, bounds))
}

/// For the solver check of the tests: `smt` as [`pretty`] shows it, in SMT-LIB (every exact
/// rewrite applied where `show` applies it), or `None` when nothing is rewritten or the text
/// cannot be read within the bounds.
#[cfg(test)]
pub(crate) fn rewritten_smt(smt: &str) -> Option<String> {
    fn normal(sx: &Sx, depth: usize) -> Option<Sx> {
        if depth > 200 {
            return None;
        }
        let mut sx = sx.clone();
        while let Sx::List(items) = &sx {
            let Some((Sx::Atom(op), args)) = items.split_first() else {
                break;
            };
            match rewrite::rewritten(op, args) {
                Some(r) => sx = r,
                None => break,
            }
        }
        match &sx {
            Sx::Atom(_) => Some(sx),
            Sx::List(items) => items
                .iter()
                .map(|i| normal(i, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(|v| Sx::List(v.into())),
        }
    }
    let sx = parse(smt)?;
    let mut budget = 20_000;
    let sx = unlet(&sx, &[], &mut budget)?;
    let n = normal(&sx, 0)?;
    let text = |x: &Sx| {
        let mut t = String::new();
        let mut budget = 100_000;
        key(x, &mut t, &mut budget).map(|_| t)
    };
    let (before, after) = (text(&sx)?, text(&n)?);
    (before != after).then_some(after)
}

#[cfg(test)]
fn num_text(v: i128) -> String {
    if v < 0 {
        format!("(- {})", -v)
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::pretty;

    #[test]
    fn formulas_read_like_mathematics() {
        assert_eq!(pretty("true"), "true");
        assert_eq!(
            pretty("(and (= |main::i#1| 0) (= |main::x#2| 0) (= |main::x#1| 1))"),
            "i = 0 ∧ x₂ = 0 ∧ x₁ = 1"
        );
        assert_eq!(
            pretty("(not (and (>= |main::i#1| 4) (not (= |main::x#1| 8))))"),
            "i < 4 ∨ x = 8"
        );
        assert_eq!(pretty("(<= |main::x| 10)"), "x ≤ 10");
        assert_eq!(pretty("(or (and a b) c)"), "(a ∧ b) ∨ c");
        assert_eq!(pretty("(and (or a b) c)"), "(a ∨ b) ∧ c");
        assert_eq!(pretty("(- x (- y z))"), "x - (y - z)");
        assert_eq!(pretty("(- (- x y) z)"), "x - y - z");
        assert_eq!(pretty("(* 2 (+ x 1))"), "2·(x + 1)");
        assert_eq!(pretty("(= x (- 5))"), "x = -5");
        // Differences and bounds read as a person writes them (exact over integers).
        assert_eq!(pretty("(<= (+ x (* (- 1) y)) (- 1))"), "x < y");
        assert_eq!(pretty("(<= (+ (* (- 1) x) y) (- 1))"), "y < x");
        assert_eq!(pretty("(<= (+ x (* (- 1) y)) 0)"), "x ≤ y");
        assert_eq!(pretty("(<= (+ x (* (- 1) y)) 3)"), "x - y ≤ 3");
        assert_eq!(pretty("(> 2 |main::x#1|)"), "x < 2");
        // Both orders of a strict pair: ≠, and = under a negation.
        assert_eq!(pretty("(or (< x y) (< y x))"), "x ≠ y");
        assert_eq!(
            pretty("(not (or (<= (+ x (* (- 1) y)) (- 1)) (> x y)))"),
            "x = y"
        );
        assert_eq!(pretty("(or (< x y) (< x z))"), "x < y ∨ x < z");
        assert_eq!(pretty("(>= (+ x 1) 5)"), "x ≥ 4");
        assert_eq!(pretty("(= (+ x (* (- 1) y)) 0)"), "x = y");
        assert_eq!(pretty("(not (<= x y))"), "x > y");
        assert_eq!(pretty("(not (not (< x 3)))"), "x < 3");
        assert_eq!(pretty("(<= (+ (* 2 x) y) 1)"), "2·x + y ≤ 1");
        assert_eq!(
            pretty("(not (and (or (<= (+ (ite (>= |main::x#1| 2147483647) (+ |main::x#1| (- 4294967295)) (+ |main::x#1| 1)) (* (- 1) (ite (>= |main::y#1| 2147483647) (+ |main::y#1| (- 4294967295)) (+ |main::y#1| 1)))) (- 1)) (<= (+ (* (- 1) (ite (>= |main::x#1| 2147483647) (+ |main::x#1| (- 4294967295)) (+ |main::x#1| 1))) (ite (>= |main::y#1| 2147483647) (+ |main::y#1| (- 4294967295)) (+ |main::y#1| 1))) (- 1))) (> 2 |main::x#1|)))"),
            "wrap32(x + 1) = wrap32(y + 1) ∨ x ≥ 2"
        );
        assert_eq!(pretty("(+ (* -1 x) y 3)"), "-x + y + 3");
        assert_eq!(pretty("(bvsle |f::n#2| (_ bv3 32))"), "f::n ≤ 3");
        assert_eq!(pretty("((_ extract 7 0) x)"), "extract[7,0](x)");
        assert_eq!(
            pretty("(let ((a!1 (+ x 1))) (and (> a!1 0) (< a!1 9)))"),
            "x ≥ 0 ∧ x < 8"
        );
        assert_eq!(pretty("(ite c 1 0)"), "c ? 1 : 0");
        // The encoding of a wrap-around reads as one, simplified or not; look-alikes do not.
        assert_eq!(
            pretty("(ite (>= |main::x#1| 2147483647) (+ |main::x#1| (- 4294967295)) (+ |main::x#1| 1))"),
            "wrap32(x + 1)"
        );
        assert_eq!(
            pretty("(ite (>= (+ x 1) 2147483648) (- (+ x 1) 4294967296) (+ x 1))"),
            "wrap32(x + 1)"
        );
        assert_eq!(
            pretty("(ite (>= (- x 1) 0) (- x 1) (+ (- x 1) 4294967296))"),
            "wrap32(x - 1)"
        );
        assert_eq!(
            pretty("(ite (>= (- y 1) 0) (- y 1) (+ (- y 1) 256))"),
            "wrap8(y - 1)"
        );
        assert_eq!(
            pretty("(ite (>= x 5) (+ x (- 4294967295)) (+ x 1))"),
            "x ≥ 5 ? x - 4294967295 : x + 1"
        );
        assert_eq!(
            pretty("(ite (>= x 2147483647) (+ x (- 4294967295)) (+ y 1))"),
            "x ≥ 2147483647 ? x - 4294967295 : y + 1"
        );
        assert_eq!(pretty("#x0000000a"), "10");
        // Redundant bounds are gone: the tightest in a conjunction, the weakest in a
        // disjunction; bounds that meet are an equality; contradictions and covers stay.
        assert_eq!(pretty("(and (>= x 0) (>= x 1) (< y 3))"), "x ≥ 1 ∧ y < 3");
        assert_eq!(pretty("(and (<= x 5) (> x 4))"), "x = 5");
        assert_eq!(pretty("(and (<= x 5) (> x 4) (>= x 0))"), "x = 5");
        assert_eq!(pretty("(and (= x 3) (>= x 0) (< y x))"), "x = 3 ∧ y < x");
        assert_eq!(
            pretty("(or (<= (+ x (* (- 1) y)) 3) (< x 0) (<= (+ x (* (- 1) y)) 5))"),
            "x - y ≤ 5 ∨ x < 0"
        );
        assert_eq!(pretty("(and (>= (- x) (- 4)) (<= x 7))"), "x ≤ 4");
        assert_eq!(
            pretty("(and (>= x 5) (<= x 3) (>= x 4))"),
            "x ≥ 5 ∧ x ≤ 3 ∧ x ≥ 4"
        );
        assert_eq!(
            pretty("(or (<= x 3) (>= x 4) (<= x 1))"),
            "x ≤ 3 ∨ x ≥ 4 ∨ x ≤ 1"
        );
        assert_eq!(pretty("(or (<= x 3) (>= x 9))"), "x ≤ 3 ∨ x ≥ 9");
        // Excerpts and anything unreadable stay as they are.
        assert_eq!(pretty("(and (= x 0) (= y…"), "(and (= x 0) (= y…");
        assert_eq!(pretty(""), "");
    }

    /// Where the ranges of the location rule a wrap-around out, the value is shown; where
    /// they do not (a range too wide, a variable without one), `wrap32(…)` stays.
    #[test]
    fn wrap_arounds_that_cannot_happen_are_not_shown() {
        use super::{pretty_at, Ranges};
        use cpa_engine::report::Range;
        let range = |v: &str, lo: i64, hi: i64| Range {
            var: v.into(),
            lo: lo.to_string(),
            hi: hi.to_string(),
        };
        let fig2 = "(not (or (<= (+ (ite (>= |main::x#1| 2147483647) (+ |main::x#1| (- 4294967295)) (+ |main::x#1| 1)) (* (- 1) (ite (>= |main::y#1| 2147483647) (+ |main::y#1| (- 4294967295)) (+ |main::y#1| 1)))) (- 1)) (<= (+ (* (- 1) (ite (>= |main::x#1| 2147483647) (+ |main::x#1| (- 4294967295)) (+ |main::x#1| 1))) (ite (>= |main::y#1| 2147483647) (+ |main::y#1| (- 4294967295)) (+ |main::y#1| 1))) (- 1))))";
        let at_loop_head = Ranges::new(&[range("main::x", 0, 2), range("main::y", 0, 2)]);
        assert_eq!(pretty_at(fig2, &at_loop_head), "x = y");
        // y unbounded above: y + 1 may wrap.
        let wide = Ranges::new(&[range("main::x", 0, 2), range("main::y", 0, 2147483647)]);
        assert_eq!(
            pretty_at(fig2, &wide),
            "¬(x + 1 - wrap32(y + 1) ≤ -1 ∨ wrap32(y + 1) ≤ x)"
        );
        assert_eq!(pretty(fig2), "wrap32(x + 1) = wrap32(y + 1)");
        // Unsigned: x - 1 wraps below 0 unless x ≥ 1.
        let dec = "(ite (>= (- |main::x| 1) 0) (- |main::x| 1) (+ (- |main::x| 1) 4294967296))";
        assert_eq!(
            pretty_at(dec, &Ranges::new(&[range("main::x", 1, 9)])),
            "x - 1"
        );
        assert_eq!(
            pretty_at(dec, &Ranges::new(&[range("main::x", 0, 9)])),
            "wrap32(x - 1)"
        );
        // Activations of a recursive function share its ranges.
        let rec = "(ite (>= |f::n@1#2| 2147483647) (+ |f::n@1#2| (- 4294967295)) (+ |f::n@1#2| 1))";
        assert_eq!(
            pretty_at(rec, &Ranges::new(&[range("f::n", -5, 5)])),
            "f::n@1 + 1"
        );
    }

    /// `a!k = (or a!(k-1) a!(k-1))`: a text of 2 KB for a tree of 2^60 nodes (interpolants
    /// over interpolants look like this). Shown in bounded time, cut with `…`.
    #[test]
    fn shared_subterms_are_shown_in_bounded_time() {
        let mut text = String::from("(let ((a!0 (or (<= |main::x#1| 0) (> |main::y#2| 3))))");
        for k in 1..=60 {
            text.push_str(&format!(" (let ((a!{k} (or a!{} a!{})))", k - 1, k - 1));
        }
        text.push_str(" (and a!60 (ite (>= a!60 2147483647) (+ a!60 (- 4294967295)) (+ a!60 1)))");
        text.push_str(&")".repeat(61));
        let shown = pretty(&text);
        assert!(shown.len() <= super::MAX_SHOWN + 4, "{}", shown.len());
        assert!(shown.ends_with('…'));
        assert!(
            shown.contains("(x ≤ 0 ∨ y > 3) ∨ (x ≤ 0 ∨ y > 3)"),
            "{shown}"
        );
    }
}
