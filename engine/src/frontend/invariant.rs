//! A C expression over the variables visible in one function (the invariant of a correctness
//! witness) as an [`Expr`] over the program's variables.
//!
//! The expression is lowered by the front end itself, so its types, conversions and constants
//! mean exactly what they mean in the program: it is checked to be one side-effect-free
//! expression, then put into a small program that declares the visible variables with their
//! types and returns the expression; the returned value, with its variables mapped back to the
//! program's, is the result.

use crate::cfa::{Cfa, EdgeKind};
use crate::frontend::arith::{as_condition, binary, has_side_effects};
use crate::frontend::parse_program;
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntType, VarId};
use lang_c::ast::{BlockItem, ExternalDeclaration, Statement};
use lang_c::driver::{parse_preprocessed, Config, Flavor};
use std::collections::BTreeMap;

/// The longest invariant accepted (a witness may come from anywhere).
pub const MAX_INVARIANT_BYTES: usize = 64 << 10;

/// The variables visible in `function` by their source name: its parameters and locals, and
/// the globals they do not shadow. A name declared twice in the function (in nested blocks) is
/// ambiguous without a position inside the function and maps to `None`.
pub fn visible_variables(cfa: &Cfa, function: FuncId) -> BTreeMap<String, Option<VarId>> {
    let mut out: BTreeMap<String, Option<VarId>> = BTreeMap::new();
    let locals: Vec<(usize, &crate::ir::Variable)> = cfa
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.synthetic && v.function == Some(function))
        .collect();
    for (i, v) in &locals {
        // The front end names the N-th shadowing declaration of `y` `y__N`.
        let source = match v.name.rsplit_once("__") {
            Some((base, n))
                if n.parse::<u32>().is_ok() && locals.iter().any(|(_, w)| w.name == base) =>
            {
                base
            }
            _ => v.name.as_str(),
        };
        let id = VarId(*i as u32);
        out.entry(source.to_string())
            .and_modify(|e| *e = None)
            .or_insert(Some(id));
    }
    for (i, v) in cfa.vars.iter().enumerate() {
        if v.synthetic || v.function.is_some() {
            continue;
        }
        out.entry(v.name.clone()).or_insert(Some(VarId(i as u32)));
    }
    out
}

/// Lowers `text`, a C expression in the scope of `function`, to an expression over `cfa`'s
/// variables. `Err` says why it is not one.
pub fn parse_invariant(cfa: &Cfa, function: FuncId, text: &str) -> Result<Expr, String> {
    parse_with(cfa, function, text, None)
}

/// [`parse_invariant`], with [`RESULT`] naming `result` when it is given.
fn parse_with(
    cfa: &Cfa,
    function: FuncId,
    text: &str,
    result: Option<VarId>,
) -> Result<Expr, String> {
    if text.len() > MAX_INVARIANT_BYTES {
        return Err(format!(
            "the expression has {} bytes; at most {MAX_INVARIANT_BYTES} are accepted",
            text.len()
        ));
    }
    split_and_parse(cfa, function, text, 0, result)
}

/// The identifier `\result` of an `ensures` clause is parsed as (C reserves names that start
/// with two underscores for the implementation).
const RESULT: &str = "__res__";

/// The `ensures` clause of a function contract (witness format 2.1) of `function`: a C
/// expression over `\result`, its return value. Other variables (parameters, whose value
/// ACSL reads before the call, and globals) and `\old` are not supported.
pub fn parse_ensures(cfa: &Cfa, function: FuncId, text: &str) -> Result<Expr, String> {
    let Some((_, retval)) = cfa.function(function).ret else {
        return Err(format!(
            "'{}' returns no value to state an ensures clause over",
            cfa.function(function).name
        ));
    };
    if text.contains("\\old") {
        return Err("\\old in an ensures clause is not supported".into());
    }
    // As long as `\\result`: the bound on the text's bytes stays the same.
    let e = parse_with(
        cfa,
        function,
        &text.replace("\\result", RESULT),
        Some(retval),
    )?;
    let mut others = Vec::new();
    e.for_each_var(&mut |v| {
        if v != retval {
            others.push(cfa.var(v).name.clone());
        }
    });
    match others.first() {
        None => Ok(e),
        Some(v) => Err(format!(
            "an ensures clause over other variables than \\result ('{v}') is not supported"
        )),
    }
}

/// Texts up to this length are parsed whole; longer ones are split at their top-level `||`
/// and `&&` first, so that the front end's bound on operators per expression (which protects
/// lang-c's recursive parser) applies to each part (a disjunction of many abstract states is
/// long, but flat).
const SPLIT_ABOVE: usize = 200;

fn split_and_parse(
    cfa: &Cfa,
    function: FuncId,
    text: &str,
    depth: usize,
    result: Option<VarId>,
) -> Result<Expr, String> {
    let t = text.trim();
    if t.len() > SPLIT_ABOVE && depth < 64 {
        for (sep, op) in [("||", BinOp::LogOr), ("&&", BinOp::LogAnd)] {
            if let Some(parts) = split_top(t, sep) {
                let mut acc: Option<Expr> = None;
                for p in parts {
                    let e = as_condition(split_and_parse(cfa, function, p, depth + 1, result)?);
                    acc = Some(match acc {
                        None => e,
                        Some(a) => binary(op, a, e),
                    });
                }
                return acc.ok_or_else(|| "an empty expression".to_string());
            }
        }
        if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            if balanced(inner) {
                return split_and_parse(cfa, function, inner, depth + 1, result);
            }
        }
        // `c ? a : b` with one `?` and one `:` outside parentheses.
        if let Some([c, a, b]) = split_ternary(t) {
            let part = |x: &str| -> Result<Expr, String> {
                Ok(as_condition(split_and_parse(
                    cfa,
                    function,
                    x,
                    depth + 1,
                    result,
                )?))
            };
            let (c, a, b) = (part(c)?, part(a)?, part(b)?);
            return Ok(Expr {
                ty: IntType::INT,
                kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
            });
        }
    }
    parse_one(cfa, function, t, result)
}

/// `c ? a : b` split into its three parts when `?` and `:` occur once each outside
/// parentheses (so the split cannot mistake the nesting).
fn split_ternary(text: &str) -> Option<[&str; 3]> {
    let mut depth = 0i32;
    let (mut q, mut colon) = (None, None);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'\'' | b'"' | b',' if depth == 0 => return None,
            b'?' if depth == 0 && q.replace(i).is_some() => return None,
            b':' if depth == 0 && colon.replace(i).is_some() => return None,
            _ => {}
        }
    }
    let (q, colon) = (q?, colon?);
    (q < colon).then(|| [&text[..q], &text[q + 1..colon], &text[colon + 1..]])
}

/// Whether the parentheses of `text` balance without going below zero.
fn balanced(text: &str) -> bool {
    let mut d = 0i32;
    for c in text.chars() {
        match c {
            '(' => d += 1,
            ')' => {
                d -= 1;
                if d < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    d == 0
}

/// `text` split at `sep` outside parentheses and string literals (a cell of a literal is
/// `"ab"[1]`), when it has at least two parts and no top-level `?`, `,` or character
/// constant (whose precedence or contents would make the split wrong).
fn split_top<'t>(text: &'t str, sep: &str) -> Option<Vec<&'t str>> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return None;
                }
            }
            b'\'' => return None,
            b'?' | b',' if depth == 0 => return None,
            _ => {}
        }
        if depth == 0 && text[i..].starts_with(sep) {
            parts.push(&text[start..i]);
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
    }
    parts.push(&text[start..]);
    (parts.len() > 1 && depth == 0).then_some(parts)
}

/// One expression, parsed whole.
fn parse_one(
    cfa: &Cfa,
    function: FuncId,
    text: &str,
    result: Option<VarId>,
) -> Result<Expr, String> {
    // lang-c's parser is recursive: bound the nesting before it runs.
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > 100 {
                    return Err("the expression is nested too deeply".into());
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    // Exactly one expression: the only statement of a function, nothing else.
    let config = Config {
        cpp_command: String::new(),
        cpp_options: Vec::new(),
        flavor: Flavor::GnuC11,
    };
    let unit =
        parse_preprocessed(&config, format!("void f(void) {{ (\n{text}\n); }}")).map_err(|e| {
            match e.line {
                2 => format!("not a C expression: syntax error at column {}", e.column),
                _ => "not a C expression: it is incomplete".to_string(),
            }
        })?;
    let not_one = || "not a C expression".to_string();
    let [decl] = unit.unit.0.as_slice() else {
        return Err(not_one());
    };
    let ExternalDeclaration::FunctionDefinition(fd) = &decl.node else {
        return Err(not_one());
    };
    let Statement::Compound(items) = &fd.node.statement.node else {
        return Err(not_one());
    };
    let [item] = items.as_slice() else {
        return Err(not_one());
    };
    let BlockItem::Statement(st) = &item.node else {
        return Err(not_one());
    };
    let Statement::Expression(Some(e)) = &st.node else {
        return Err(not_one());
    };
    if has_side_effects(&e.node) {
        return Err("the expression has side effects".into());
    }
    let visible = visible_variables(cfa, function);
    let mut program = String::new();
    let mut by_name = BTreeMap::new();
    // Cells of objects are named by C lvalues (`a[2]`, `s.x`): each is declared under an
    // identifier of its own, which replaces its name in the text, and `&` of a cell or an
    // object is its address.
    let mut replace: Vec<(String, String)> = Vec::new();
    for (name, id) in &visible {
        let Some(id) = id else { continue };
        // The invariant's own function is `main` here; a variable of that name cannot be.
        if name == "main" {
            continue;
        }
        let decl = if is_identifier(name) {
            name.clone()
        } else {
            let m = format!("__cell_{}", id.0);
            replace.push((name.clone(), m.clone()));
            m
        };
        program.push_str(&format!("{} {decl};\n", cfa.var(*id).ty.c_name()));
        by_name.insert(decl, *id);
    }
    for o in cfa.objects.iter().filter(|o| !o.heap) {
        replace.push((format!("&{}", o.name), format!("{}U", o.base)));
        for (off, v) in &o.cells {
            let cell = &cfa.var(*v).name;
            replace.push((format!("&{cell}"), format!("{}U", o.base + off)));
        }
    }
    let text = &substitute(text, &mut replace);
    if let Some(r) = result {
        program.push_str(&format!("{} {RESULT};\n", cfa.var(r).ty.c_name()));
        by_name.insert(RESULT.to_string(), r);
    }
    program.push_str("int main(void) {\nreturn (\n");
    program.push_str(text);
    program.push_str("\n);\n}\n");
    let parsed = parse_program("invariant.c", &program).map_err(|diags| {
        let d = &diags[0];
        let ambiguous: Vec<&String> = visible
            .iter()
            .filter(|(n, v)| v.is_none() && d.message.contains(&format!("'{n}'")))
            .map(|(n, _)| n)
            .collect();
        match ambiguous.first() {
            Some(n) => format!(
                "'{n}' names more than one variable of function '{}'",
                cfa.function(function).name
            ),
            None => d.message.clone(),
        }
    })?;
    let small = &parsed.cfa;
    let mut value = None;
    for e in &small.edges {
        match &e.kind {
            EdgeKind::ReturnValue { value: Some(x), .. } => value = Some(x.clone()),
            EdgeKind::Assign { .. } | EdgeKind::Call { .. } => {
                return Err("the expression has side effects".into())
            }
            _ => {}
        }
    }
    let value = value.ok_or("the expression has no value")?;
    // `return` converts to int; the invariant is the expression's own value.
    let value = match value.kind {
        ExprKind::Cast {
            explicit: false,
            operand,
        } => *operand,
        _ => value,
    };
    let mut map = BTreeMap::new();
    for (i, v) in small.vars.iter().enumerate() {
        if let Some(id) = by_name.get(&v.name) {
            if v.function.is_none() {
                map.insert(VarId(i as u32), *id);
            }
        }
    }
    remap(&value, &map)
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `text` with each occurrence of a key of `replace` (the longest one that matches at a
/// position, as a whole token: not inside an identifier, and not followed by more of a name)
/// replaced by its value; outside string literals except where a key is one.
fn substitute(text: &str, replace: &mut [(String, String)]) -> String {
    replace.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let start_ok = i == 0 || !word(bytes[i - 1]);
        // `&&` is no address-of.
        let amp_ok = bytes[i] != b'&'
            || (bytes.get(i + 1) != Some(&b'&') && (i == 0 || bytes[i - 1] != b'&'));
        if start_ok && amp_ok {
            let hit = replace.iter().find(|(k, _)| {
                text[i..].starts_with(k.as_str())
                    && !matches!(bytes.get(i + k.len()), Some(b) if word(*b) || *b == b'[' || *b == b'.')
            });
            if let Some((k, v)) = hit {
                out.push_str(v);
                i += k.len();
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// `e` with its variables renamed by `map`; a variable outside the map is an error.
fn remap(e: &Expr, map: &BTreeMap<VarId, VarId>) -> Result<Expr, String> {
    let kind = match &e.kind {
        ExprKind::Const(v) => ExprKind::Const(*v),
        ExprKind::Var(v) => ExprKind::Var(
            *map.get(v)
                .ok_or("the expression reads a value that is not a variable")?,
        ),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(remap(a, map)?)),
        ExprKind::Binary(op, a, b) => {
            ExprKind::Binary(*op, Box::new(remap(a, map)?), Box::new(remap(b, map)?))
        }
        ExprKind::Cast { explicit, operand } => ExprKind::Cast {
            explicit: *explicit,
            operand: Box::new(remap(operand, map)?),
        },
        ExprKind::Ite(c, a, b) => ExprKind::Ite(
            Box::new(remap(c, map)?),
            Box::new(remap(a, map)?),
            Box::new(remap(b, map)?),
        ),
    };
    Ok(Expr { ty: e.ty, kind })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    const PROGRAM: &str = "int g; int main(void) { int x = 1; unsigned char c = 2; \
        int y = 3; { int y = 4; } while (x < 10) x++; return 0; }";

    fn parse(text: &str) -> Result<String, String> {
        let cfa = parse_program("p.c", PROGRAM).unwrap().cfa;
        parse_invariant(&cfa, cfa.main, text).map(|e| {
            let mut s = format!("{e:?}");
            s.retain(|c| !c.is_whitespace());
            s
        })
    }

    #[test]
    fn expressions_over_visible_variables_are_lowered_with_their_types() {
        let x = parse("x <= 10 && (long long)x - g >= 0LL").unwrap();
        assert!(x.contains("LogAnd"), "{x}");
        // The unsigned char is promoted, as in the program.
        let c = parse("c + 1 > 2").unwrap();
        assert!(c.contains("Cast"), "{c}");
        assert!(parse("1").is_ok());
    }

    #[test]
    fn what_is_no_invariant_is_rejected_with_a_reason() {
        for (text, why) in [
            ("x = 1", "side effects"),
            ("x++ < 3", "side effects"),
            ("__VERIFIER_nondet_int() > 0", "side effects"),
            ("z > 0", "undeclared identifier 'z'"),
            ("y > 0", "more than one variable"),
            ("0); } int f(void) { return (1", "not a C expression"),
            ("x >", "not a C expression"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        let deep = format!("{}x{}", "(".repeat(500), ")".repeat(500));
        assert!(parse(&deep).unwrap_err().contains("nested"));
    }

    #[test]
    fn long_flat_disjunctions_are_split_at_the_top_level() {
        // 300 cubes, far more operators than one expression of a program may have.
        let cubes: Vec<String> = (0..300)
            .map(|i| format!("(x == {i} && g != {i})"))
            .collect();
        let e = parse(&cubes.join(" || ")).unwrap();
        assert_eq!(e.matches("LogOr").count(), 299);
        // A top-level `?:` binds looser than `||`: such a text is not split (and is too
        // long for one expression).
        let ite = format!("x > 0 ? ({}) : 0", cubes.join(" || "));
        let e = parse(&ite).unwrap();
        assert!(
            e.starts_with("Expr{ty:IntType{kind:Int,signed:true},kind:Ite("),
            "{e}"
        );
        assert_eq!(e.matches("LogOr").count(), 299);
        // Two `?` at the top level are not split (and are too long for one expression).
        let two = format!("x > 0 ? 1 : x < 0 ? ({}) : 0", cubes.join(" || "));
        assert!(parse(&two).unwrap_err().contains("operators"));
    }
}
