//! Formulas for reading: the engine's SMT-LIB text (`(and (>= |main::i#1| 4) ...)`) in the
//! usual mathematical notation (`i₁ ≥ 4 ∧ …`). Display only: anything this cannot read (an
//! excerpt cut by the engine, an unknown construct) is shown as it is.
//!
//! The work is bounded by the text's size, not by the formula's: a `let` shares a subterm, so
//! a text of 3,000 characters can stand for a tree of 2^100 nodes (nested disjunctions of
//! interpolants do that). The bound values are shared, not copied ([`Sx`] lists are
//! reference-counted), and the mathematical text stops at [`MAX_SHOWN`] characters.

use std::rc::Rc;

/// The longest text [`pretty`] returns (then cut with `…`).
pub const MAX_SHOWN: usize = 4000;

/// An s-expression; cloning one is cheap (a list is shared).
#[derive(Clone, Debug, PartialEq)]
enum Sx {
    Atom(String),
    List(Rc<[Sx]>),
}

fn parse(text: &str) -> Option<Sx> {
    let tokens = tokens(text)?;
    let mut pos = 0;
    let sx = read(&tokens, &mut pos, 0)?;
    (pos == tokens.len()).then_some(sx)
}

/// `|base#k|` split into the base and the index.
fn indexed(atom: &str) -> Option<(&str, &str)> {
    let bare = atom.strip_prefix('|')?.strip_suffix('|')?;
    match bare.rsplit_once('#') {
        Some((b, i)) if !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()) => Some((b, i)),
        _ => None,
    }
}

/// SSA indices only where they matter: a variable that occurs with one index only (and not
/// unindexed) loses it (`x₁ = y₁` reads `x = y`; `x₂ = x₁ + 1` keeps both).
fn drop_single_indices(tokens: &mut [String]) {
    use std::collections::{BTreeMap, BTreeSet};
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for t in tokens.iter() {
        if let Some((b, i)) = indexed(t) {
            seen.entry(b.to_string()).or_default().insert(i.to_string());
        } else if let Some(b) = t.strip_prefix('|').and_then(|t| t.strip_suffix('|')) {
            seen.entry(b.to_string()).or_default().insert(String::new());
        }
    }
    for t in tokens.iter_mut() {
        let single = indexed(t)
            .filter(|(b, _)| seen.get(*b).is_some_and(|ix| ix.len() == 1))
            .map(|(b, _)| format!("|{b}|"));
        if let Some(u) = single {
            *t = u;
        }
    }
}

fn tokens(text: &str) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '(' | ')' => {
                tokens.push(c.to_string());
                chars.next();
            }
            '|' => {
                chars.next();
                let mut s = String::from("|");
                loop {
                    let (_, d) = chars.next()?;
                    s.push(d);
                    if d == '|' {
                        break;
                    }
                }
                tokens.push(s);
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let start = i;
                let mut end = text.len();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_whitespace() || d == '(' || d == ')' || d == '|' {
                        end = j;
                        break;
                    }
                    chars.next();
                }
                tokens.push(text[start..end].to_string());
            }
        }
    }
    Some(tokens)
}

fn read(tokens: &[String], pos: &mut usize, depth: usize) -> Option<Sx> {
    if depth > 200 {
        return None;
    }
    let t = tokens.get(*pos)?;
    *pos += 1;
    match t.as_str() {
        "(" => {
            let mut items = Vec::new();
            loop {
                if tokens.get(*pos)? == ")" {
                    *pos += 1;
                    return Some(Sx::List(items.into()));
                }
                items.push(read(tokens, pos, depth + 1)?);
            }
        }
        ")" => None,
        _ => Some(Sx::Atom(t.clone())),
    }
}

/// `|main::x#3|` → `x₃`; `|f::n|` → `f::n`; auxiliaries keep their names.
fn name(atom: &str) -> String {
    let bare = atom.trim_matches('|');
    let (base, index) = match bare.rsplit_once('#') {
        Some((b, i)) if !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()) => (b, Some(i)),
        _ => (bare, None),
    };
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
            match (op.as_str(), args) {
                ("_", [Sx::Atom(v), _]) if v.starts_with("bv") => out.push_str(&v[2..]),
                ("-", [x]) => {
                    out.push('-');
                    show(x, out, 13);
                }
                // ¬¬x reads x; ¬(a ≤ b) reads a > b (exact: the comparisons are over integers).
                ("not", [Sx::List(inner)])
                    if inner.len() == 2 && inner[0] == Sx::Atom("not".into()) =>
                {
                    show(&inner[1], out, outer);
                }
                ("not", [Sx::List(inner)])
                    if inner.len() == 3
                        && matches!(&inner[0], Sx::Atom(o) if negated(o).is_some()) =>
                {
                    let Sx::Atom(o) = &inner[0] else { return };
                    let flipped = Sx::List(Rc::from(vec![
                        Sx::Atom(negated(o).unwrap_or("distinct").into()),
                        inner[1].clone(),
                        inner[2].clone(),
                    ]));
                    show(&flipped, out, outer);
                }
                (op @ ("<=" | "<" | ">=" | ">" | "="), [l, r])
                    if simpler_comparison(op, l, r).is_some() =>
                {
                    if let Some(c) = simpler_comparison(op, l, r) {
                        show(&c, out, outer);
                    }
                }
                ("not", [Sx::List(inner)])
                    if inner.len() == 3 && inner[0] == Sx::Atom("=".into()) =>
                {
                    let ne = Sx::List(Rc::from(vec![
                        Sx::Atom("distinct".into()),
                        inner[1].clone(),
                        inner[2].clone(),
                    ]));
                    show(&ne, out, outer);
                }
                // a < b ∨ b < a reads a ≠ b, its negation a = b (exact over the integers).
                ("or", [a, b]) if strict_pair(a, b).is_some() => {
                    if let Some((p, q)) = strict_pair(a, b) {
                        show(
                            &Sx::List(Rc::from(vec![Sx::Atom("distinct".into()), p, q])),
                            out,
                            outer,
                        );
                    }
                }
                ("not", [Sx::List(inner)]) if matches!(&inner[..], [Sx::Atom(o), a, b] if o == "or" && strict_pair(a, b).is_some()) => {
                    if let [_, a, b] = &inner[..] {
                        if let Some((p, q)) = strict_pair(a, b) {
                            show(
                                &Sx::List(Rc::from(vec![Sx::Atom("=".into()), p, q])),
                                out,
                                outer,
                            );
                        }
                    }
                }
                // ¬(a ∧ b) of comparisons reads ¬a ∨ ¬b with each negation a comparison
                // (`¬(x ≠ y ∧ x < 2)` is `x = y ∨ x ≥ 2`).
                ("not", [Sx::List(inner)]) if matches!(&inner[..], [Sx::Atom(o), rest @ ..] if o == "and" && rest.len() >= 2 && rest.iter().all(|c| negation(c).is_some())) =>
                {
                    let parts: Vec<Sx> = inner[1..].iter().filter_map(negation).collect();
                    let mut or = vec![Sx::Atom("or".into())];
                    or.extend(parts);
                    show(&Sx::List(Rc::from(or)), out, outer);
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

/// `(p, q)` when `sx` says `p < q` (as written, or as [`simpler_comparison`] or a negated
/// `≥` reads it).
fn less_than(sx: &Sx) -> Option<(Sx, Sx)> {
    let Sx::List(items) = sx else { return None };
    match &items[..] {
        [Sx::Atom(o), p, q] if o == "<" => Some((p.clone(), q.clone())),
        [Sx::Atom(o), p, q] if o == ">" => Some((q.clone(), p.clone())),
        [Sx::Atom(o), Sx::List(inner)] if o == "not" => match &inner[..] {
            [Sx::Atom(o), p, q] if o == ">=" => Some((p.clone(), q.clone())),
            [Sx::Atom(o), p, q] if o == "<=" => Some((q.clone(), p.clone())),
            _ => None,
        },
        [Sx::Atom(o), l, r] => match simpler_comparison(o, l, r)? {
            Sx::List(c) => match &c[..] {
                [Sx::Atom(o), p, q] if o == "<" => Some((p.clone(), q.clone())),
                [Sx::Atom(o), p, q] if o == ">" => Some((q.clone(), p.clone())),
                _ => None,
            },
            Sx::Atom(_) => None,
        },
        _ => None,
    }
}

/// The comparison that holds exactly when `sx` does not, where `sx` is one (over integers):
/// `a ≤ b` for `a > b`, `a = b` for `a ≠ b` and for `a < b ∨ b < a`, `p` for `¬p`.
fn negation(sx: &Sx) -> Option<Sx> {
    let Sx::List(items) = sx else { return None };
    let list = |op: &str, a: &Sx, b: &Sx| {
        Sx::List(Rc::from(vec![Sx::Atom(op.into()), a.clone(), b.clone()]))
    };
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
    let flip = |o: &str| -> &'static str {
        match o {
            "<=" => ">=",
            "<" => ">",
            ">=" => "<=",
            ">" => "<",
            _ => "=",
        }
    };
    let term = |k: &str| parse(k);
    let num = |v: i128| {
        if v < 0 {
            Sx::List(Rc::from(vec![
                Sx::Atom("-".into()),
                Sx::Atom((-v).to_string()),
            ]))
        } else {
            Sx::Atom(v.to_string())
        }
    };
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
        // c·x + k op 0 with c = ±1: x op -k, or x flip(op) k.
        [(x, c)] if c.abs() == 1 => {
            let (op, bound) = if *c == 1 { (op, -k) } else { (flip(op), k) };
            // x > -1 reads x ≥ 0.
            let (op, bound) = match (op, bound) {
                (">", b) if b < 0 => (">=", b + 1),
                other => other,
            };
            (op, term(x)?, num(bound))
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

fn literal(sx: &Sx) -> Option<i128> {
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
fn key(sx: &Sx, out: &mut String, budget: &mut usize) -> Option<()> {
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
fn linear(sx: &Sx, depth: usize, budget: &mut usize) -> Option<Linear> {
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

fn difference(a: &Linear, b: &Linear) -> Linear {
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
fn wrapped<'a>(c: &Sx, a: &'a Sx, b: &'a Sx) -> Option<Wrap<'a>> {
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
struct Wrap<'a> {
    bits: u32,
    value: &'a Sx,
    lo: i128,
    hi: i128,
}

/// What is known of the values where a formula is shown: the range of each variable (by its
/// unindexed SMT name, `main::x`) at the formula's location, from the engine's octagon
/// analysis (`CfaReport::ranges`). Sound: every value an execution has there lies in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges(std::collections::BTreeMap<String, (i128, i128)>);

impl Ranges {
    pub fn new(ranges: &[cpa_engine::report::Range]) -> Ranges {
        Ranges(
            ranges
                .iter()
                .filter_map(|r| Some((r.var.clone(), (r.lo.parse().ok()?, r.hi.parse().ok()?))))
                .collect(),
        )
    }

    /// The ranges at location `l` of `cfa` (none known: empty).
    pub fn at(cfa: &crate::protocol::Graph, l: u32) -> Ranges {
        cfa.nodes
            .iter()
            .find(|n| n.id == l)
            .map(|n| Ranges::new(&n.ranges))
            .unwrap_or_default()
    }

    fn of_atom(&self, atom: &str) -> Option<(i128, i128)> {
        let bare = atom.trim_matches('|');
        let bare = indexed(atom).map_or(bare, |(b, _)| b);
        // The activations of a recursive function (`f::x@2`) share the function's ranges.
        let base = match bare.rsplit_once('@') {
            Some((b, i)) if i.chars().all(|c| c.is_ascii_digit()) => b,
            _ => bare,
        };
        self.0.get(base).copied()
    }

    /// The values `sx` can have (interval arithmetic; `None`: not known).
    fn of(&self, sx: &Sx, depth: usize) -> Option<(i128, i128)> {
        if depth > 40 {
            return None;
        }
        if let Some(v) = literal(sx) {
            return Some((v, v));
        }
        let items = match sx {
            Sx::Atom(a) => return self.of_atom(a),
            Sx::List(items) => items,
        };
        let add = |(a, b): (i128, i128), (c, d): (i128, i128)| {
            Some((a.checked_add(c)?, b.checked_add(d)?))
        };
        let neg = |(a, b): (i128, i128)| Some((b.checked_neg()?, a.checked_neg()?));
        match &items[..] {
            [Sx::Atom(op), args @ ..] if op == "+" && !args.is_empty() => args
                .iter()
                .try_fold((0, 0), |acc, a| add(acc, self.of(a, depth + 1)?)),
            [Sx::Atom(op), x] if op == "-" => neg(self.of(x, depth + 1)?),
            [Sx::Atom(op), x, rest @ ..] if op == "-" => {
                rest.iter().try_fold(self.of(x, depth + 1)?, |acc, a| {
                    add(acc, neg(self.of(a, depth + 1)?)?)
                })
            }
            [Sx::Atom(op), k, x] | [Sx::Atom(op), x, k] if op == "*" && literal(k).is_some() => {
                let k = literal(k)?;
                let (a, b) = self.of(x, depth + 1)?;
                let (p, q) = (a.checked_mul(k)?, b.checked_mul(k)?);
                Some((p.min(q), p.max(q)))
            }
            [Sx::Atom(op), c, a, b] if op == "ite" => {
                let w = wrapped(c, a, b)?;
                match self.of(w.value, depth + 1) {
                    Some((p, q)) if p >= w.lo && q <= w.hi => Some((p, q)),
                    _ => Some((w.lo, w.hi)),
                }
            }
            _ => None,
        }
    }

    /// `sx` with every wrap-around whose value cannot leave its type's range here replaced
    /// by the value (exact at every state the ranges describe). `budget` bounds the nodes
    /// visited (a shared subterm can make the tree far larger than the text).
    fn unwrap(&self, sx: &Sx, budget: &mut usize) -> Option<Sx> {
        *budget = budget.checked_sub(1)?;
        let Sx::List(items) = sx else {
            return Some(sx.clone());
        };
        if let [Sx::Atom(op), c, a, b] = &items[..] {
            if op == "ite" {
                if let Some(w) = wrapped(c, a, b) {
                    if matches!(self.of(w.value, 0), Some((p, q)) if p >= w.lo && q <= w.hi) {
                        return self.unwrap(w.value, budget);
                    }
                }
            }
        }
        items
            .iter()
            .map(|x| self.unwrap(x, budget))
            .collect::<Option<Vec<_>>>()
            .map(|v| Sx::List(v.into()))
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
    let Some(mut tokens) = tokens(smt) else {
        return smt.to_string();
    };
    drop_single_indices(&mut tokens);
    let mut pos = 0;
    let Some(sx) = read(&tokens, &mut pos, 0).filter(|_| pos == tokens.len()) else {
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
