//! The semantics test of the solver bridge: a table of C expressions over typed inputs
//! (`tests/semantics/expressions.txt`) whose values, computed by gcc-compiled C, must equal
//! what the engine computes for them, on every layer an analysis uses:
//!
//! 1. the front end parses `result = EXPR;` and types `EXPR` (its type must be the table's);
//! 2. the concrete semantics (`semantics::eval`) evaluates the typed expression;
//! 3. for both encodings, the formula encoder (`Encoder::sp` on the CFA edges, the inputs being
//!    the initialisations on the path) gives a formula in which z3 finds `result`'s value; an
//!    exact formula must also determine it (`result != value` is unsatisfiable); a formula
//!    marked approximated (Int encoding of some bit operations) must admit the gcc value;
//! 4. the same after substituting the inputs into the formula, which exercises the term
//!    layer's constant folding.
//!
//! The reference values come from gcc: one C program for all cases, compiled with
//! `-O0 -fwrapv` for this x86-64 machine with `long` mapped to 32 bits (linking `-m32` needs
//! 32-bit libraries that are not installed). A second gcc run in true ILP32 mode
//! (`-m32 -fsyntax-only -pedantic-errors`, no libraries needed) checks every case as an integer
//! constant expression: the table's type, the value of the first run, and the absence of
//! undefined behaviour (gcc rejects overflowing constant expressions and bad shifts).
//! Undefined behaviour is also excluded by this test's own checker (`undefined_behaviour`).

use cpa_engine::cfa::{Cfa, Edge, EdgeKind, NodeId, Rhs};
use cpa_engine::cpa::control::ControlState;
use cpa_engine::formula::{Encoder, Encoding, PathFormula, Slot, SsaMap};
use cpa_engine::ir::semantics;
use cpa_engine::ir::{BinOp, Expr, ExprKind, IntKind, IntType, UnOp, VarId};
use cpa_engine::parse_program;
use cpa_engine::smt::{BridgeSmt, Sat, Smt};
use solver_bridge::solver::NativeZ3;
use solver_bridge::term::{Term, Var};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------------
// The table

#[derive(Clone, Debug)]
struct Input {
    name: String,
    ty: IntType,
    value: i128,
}

#[derive(Clone, Debug)]
struct Case {
    /// Line in the table file (1-based), for messages.
    line: usize,
    category: String,
    inputs: Vec<Input>,
    /// The C type of `expr` in ILP32, and its spelling in the table (`signed char` and `char`
    /// are the same type for the engine but distinct types for gcc's type check).
    ty: IntType,
    ty_text: String,
    expr: String,
    /// Marked `# approximated in Int`: the Int encoding over-approximates the expression.
    int_approximated: bool,
    /// Marked `# wraps`: signed overflow on purpose. C leaves it undefined; the project defines
    /// it as two's-complement wrap-around (gcc's `-fwrapv`, which computes the reference), so
    /// such a case is checked like any other except by gcc's ILP32 constant-expression check
    /// (which rejects overflow) and must overflow (or the marker is stale).
    wraps: bool,
}

impl Case {
    fn title(&self) -> String {
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|i| format!("{} {} = {}", i.ty, i.name, i.value))
            .collect();
        format!(
            "line {} [{}] {} -> {}: {}",
            self.line,
            self.category,
            inputs.join("; "),
            self.ty_text,
            self.expr
        )
    }
}

const RESULT: &str = "result";
/// The marker of cases whose Int-encoding formula is an over-approximation.
const APPROXIMATED: &str = "approximated in Int";
/// The marker of cases with signed overflow (wrap-around, gcc's `-fwrapv`).
const WRAPS: &str = "wraps";
/// A second variable assigned the expression, of a type the expression does not have, so that
/// the assignment always inserts a conversion whose operand shows the front end's type.
const PROBE: &str = "probe";

/// An integer type name as C spells it (`unsigned`, `short int`, `signed char`, ...).
fn parse_type(text: &str) -> Option<IntType> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let count = |w: &str| words.iter().filter(|x| **x == w).count();
    if words.is_empty()
        || words.iter().any(|w| {
            !matches!(
                *w,
                "unsigned" | "signed" | "char" | "short" | "int" | "long" | "_Bool"
            )
        })
    {
        return None;
    }
    let (unsigned, signed) = (count("unsigned"), count("signed"));
    let (char_, short, int, long, bool_) = (
        count("char"),
        count("short"),
        count("int"),
        count("long"),
        count("_Bool"),
    );
    if unsigned + signed > 1 || int > 1 || char_ + short + bool_ + usize::from(long > 0) > 1 {
        return None;
    }
    if bool_ == 1 {
        return (words.len() == 1).then_some(IntType::BOOL);
    }
    if char_ == 1 && int > 0 {
        return None;
    }
    let kind = match (char_, short, long) {
        (1, _, _) => IntKind::Char,
        (_, 1, _) => IntKind::Short,
        (_, _, 0) => IntKind::Int,
        (_, _, 1) => IntKind::Long,
        (_, _, 2) => IntKind::LongLong,
        _ => return None,
    };
    Some(IntType {
        kind,
        signed: unsigned == 0,
    })
}

/// An input value: an optional `-`, then decimal digits or `0x` and hex digits.
fn parse_value(text: &str) -> Option<i128> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse().ok()?
        }
        None => return None,
    };
    Some(if neg { -magnitude } else { magnitude })
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `unsigned char a = 250, b = 10; int c = -1`
fn parse_inputs(text: &str) -> Result<Vec<Input>, String> {
    let mut inputs: Vec<Input> = Vec::new();
    for decl in text.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        let first_eq = decl
            .find('=')
            .ok_or(format!("no initialiser in '{decl}'"))?;
        // The type is everything before the first declarator's name.
        let head = decl[..first_eq].trim();
        let (ty_text, first_name) = head
            .rsplit_once(char::is_whitespace)
            .ok_or(format!("no type in '{decl}'"))?;
        let ty = parse_type(ty_text).ok_or(format!("unknown type '{ty_text}'"))?;
        let declarators = format!("{first_name} {}", &decl[first_eq..]);
        for d in declarators.split(',') {
            let (name, value) = d
                .split_once('=')
                .ok_or(format!("no initialiser in '{d}'"))?;
            let (name, value) = (name.trim(), value.trim());
            if !is_identifier(name) || name == RESULT || name == PROBE || parse_type(name).is_some()
            {
                return Err(format!("bad input name '{name}'"));
            }
            if inputs.iter().any(|i| i.name == name) {
                return Err(format!("input '{name}' declared twice"));
            }
            let value = parse_value(value).ok_or(format!("bad value '{value}'"))?;
            if !ty.contains(value) {
                return Err(format!("{value} is out of the range of {ty}"));
            }
            inputs.push(Input {
                name: name.to_string(),
                ty,
                value,
            });
        }
    }
    if inputs.is_empty() {
        return Err("no inputs".into());
    }
    Ok(inputs)
}

fn parse_table(text: &str) -> Result<Vec<Case>, Vec<String>> {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let mut category = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if let Some(c) = l.strip_prefix("## ") {
            category = c.trim().to_string();
            continue;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let parsed = (|| -> Result<Case, String> {
            let (l, markers) = match l.split_once(" # ") {
                Some((case, m)) => (case.trim_end(), m.split(", ").collect::<Vec<_>>()),
                None => (l, Vec::new()),
            };
            if let Some(other) = markers.iter().find(|m| ![APPROXIMATED, WRAPS].contains(m)) {
                return Err(format!("unknown marker '# {other}'"));
            }
            let int_approximated = markers.contains(&APPROXIMATED);
            let wraps = markers.contains(&WRAPS);
            if category.is_empty() {
                return Err("case before the first `## category`".into());
            }
            let parts: Vec<&str> = l.split(" -> ").collect();
            let [inputs, rest] = parts[..] else {
                return Err("expected exactly one ' -> '".into());
            };
            let (ty_text, expr) = rest.split_once(':').ok_or("expected 'TYPE: EXPRESSION'")?;
            let ty = parse_type(ty_text).ok_or(format!("unknown type '{}'", ty_text.trim()))?;
            let expr = expr.trim();
            if expr.is_empty() || expr.contains(';') {
                return Err("bad expression".into());
            }
            Ok(Case {
                line,
                category: category.clone(),
                inputs: parse_inputs(inputs)?,
                ty,
                ty_text: ty_text.split_whitespace().collect::<Vec<_>>().join(" "),
                expr: expr.to_string(),
                int_approximated,
                wraps,
            })
        })();
        match parsed {
            Ok(c) => cases.push(c),
            Err(e) => errors.push(format!("expressions.txt:{line}: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

/// A C literal of type `long long` (or `unsigned long long` above its range) for `v`.
fn c_literal(v: i128) -> String {
    if v == i128::from(i64::MIN) {
        "(-9223372036854775807LL - 1)".to_string()
    } else if v > i128::from(i64::MAX) {
        format!("{v}ULL")
    } else if v < 0 {
        format!("({v}LL)")
    } else {
        format!("{v}LL")
    }
}

// ---------------------------------------------------------------------------------------------
// The engine's side: front end, concrete semantics, undefined behaviour

/// The program the engine parses for a case.
fn engine_program(case: &Case) -> String {
    let mut s = String::from("int main(void) {\n");
    for i in &case.inputs {
        let _ = writeln!(s, "    {} {} = {};", i.ty, i.name, c_literal(i.value));
    }
    let _ = writeln!(s, "    {} {RESULT};", case.ty);
    let _ = writeln!(s, "    {RESULT} = {};", case.expr);
    let _ = writeln!(s, "    {} {PROBE};", probe_type(case.ty));
    let _ = writeln!(s, "    {PROBE} = {};", case.expr);
    s.push_str("    return 0;\n}\n");
    s
}

/// The type of the probe variable: `_Bool`, which no expression of the table has unless it
/// is a cast to `_Bool`, else `long long`.
fn probe_type(ty: IntType) -> IntType {
    if ty == IntType::BOOL {
        IntType::LLONG
    } else {
        IntType::BOOL
    }
}

/// A case as the front end sees it.
struct Lowered {
    cfa: Cfa,
    /// The edges from the program entry up to and including `result = EXPR;`.
    path: Vec<Edge>,
    /// The typed expression of `result = EXPR;`.
    expr: Expr,
    result: VarId,
    /// Each input's variable and value.
    inputs: Vec<(VarId, IntType, i128)>,
}

impl Lowered {
    fn env(&self) -> impl Fn(VarId) -> Option<i128> + '_ {
        move |v| {
            self.inputs
                .iter()
                .find(|(id, _, _)| *id == v)
                .map(|(_, _, x)| *x)
        }
    }
}

fn lower(case: &Case) -> Result<Lowered, String> {
    let src = engine_program(case);
    let parsed = parse_program("case.c", &src).map_err(|diags| {
        let msgs: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        format!("front end rejects the program:\n{}", msgs.join("\n"))
    })?;
    let cfa = parsed.cfa;
    let main = cfa.main;
    let var_named = |name: &str| {
        cfa.vars
            .iter()
            .position(|v| v.name == name && v.function == Some(main) && !v.synthetic)
            .map(|i| VarId(i as u32))
            .ok_or(format!("no variable '{name}' in main"))
    };
    let result = var_named(RESULT)?;
    let mut inputs = Vec::new();
    for i in &case.inputs {
        inputs.push((var_named(&i.name)?, i.ty, i.value));
    }
    // The straight-line path from the entry through `result = EXPR;` to `probe = EXPR;`:
    // pure expressions (including `&&`, `||` and `?:` without side effects) stay inside one
    // edge. The formula is built for the path up to `result = EXPR;`.
    let mut path = Vec::new();
    let mut expr = None;
    let mut node = cfa.entry();
    let mut steps = 0;
    let probe_rhs = loop {
        let out: Vec<&Edge> = cfa.successors(node).collect();
        let [edge] = out[..] else {
            return Err(format!("the CFA branches at {node} ({} edges)", out.len()));
        };
        if expr.is_none() {
            path.push(edge.clone());
        }
        match &edge.kind {
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Expr(e),
            } if *lhs == result => expr = Some(e.clone()),
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Expr(e),
            } if cfa.var_name(*lhs) == PROBE => break e.clone(),
            EdgeKind::Declare {
                var,
                init: Some(Rhs::Expr(e)),
            } => {
                // The initialiser of an input is folded to its value, converted to its type.
                if let Some((_, ty, value)) = inputs.iter().find(|(id, _, _)| id == var) {
                    if e.as_const() != Some(*value) || e.ty != *ty {
                        return Err(format!(
                            "the front end initialises input {} with {e:?}, expected {value}",
                            cfa.var_name(*var)
                        ));
                    }
                }
            }
            _ => {}
        }
        node = edge.to;
        steps += 1;
        if steps > 64 {
            return Err("no assignment to probe found".into());
        }
    };
    let expr = expr.ok_or("no assignment to result")?;
    // The probe has a type other than the table's: the assignment converts, and the
    // conversion's operand is the expression as the front end typed it.
    let typed = match &probe_rhs.kind {
        ExprKind::Cast {
            explicit: false,
            operand,
        } if probe_rhs.ty == probe_type(case.ty) => (**operand).clone(),
        _ => probe_rhs.clone(),
    };
    if typed.ty != case.ty {
        return Err(format!(
            "the front end types the expression as {}, the table says {}",
            typed.ty, case.ty
        ));
    }
    // Same type, so `result = EXPR;` took the expression unconverted.
    if typed != expr {
        return Err(format!(
            "result = EXPR; and probe = EXPR; differ: {expr:?} / {typed:?}"
        ));
    }
    let mut vars = 0;
    expr.for_each_var(&mut |_| vars += 1);
    if vars == 0 {
        // A variable-free expression is folded by the front end; its type is then lost in the
        // conversion to `result`, and no formula is tested. Every case needs an input.
        return Err("the expression mentions no input".into());
    }
    Ok(Lowered {
        cfa,
        path,
        expr,
        result,
        inputs,
    })
}

/// `Err(why)` if evaluating `e` as C does (short-circuit `&&`/`||`, only the chosen branch
/// of `?:`) has undefined behaviour. `semantics::eval` reports division by zero and shifts out
/// of range; signed overflow (C11 6.5p5, including `INT_MIN / -1` and `INT_MIN % -1`, 6.5.5p6)
/// and left shifts of negative values or into the sign bit (6.5.7p4) are checked here with
/// exact (i128) arithmetic. Conversions are never undefined (6.3.1.3: implementation-defined).
fn undefined_behaviour(e: &Expr, env: &impl Fn(VarId) -> Option<i128>) -> Result<(), String> {
    undefined_behaviour_except_overflow(e, env)?;
    signed_overflow(e, env)
}

/// Division by zero and bad shift amounts anywhere on the evaluated path.
fn undefined_behaviour_except_overflow(
    e: &Expr,
    env: &impl Fn(VarId) -> Option<i128>,
) -> Result<(), String> {
    semantics::eval(e, env)
        .map(|_| ())
        .map_err(|err| err.to_string())
}

/// Signed overflow (and left shifts of negative values) on the evaluated path.
fn signed_overflow(e: &Expr, env: &impl Fn(VarId) -> Option<i128>) -> Result<(), String> {
    let value = |x: &Expr| semantics::eval(x, env).map_err(|err| err.to_string());
    // Errors of the whole evaluation path first.
    value(e)?;
    let in_range = |exact: i128, what: &str| {
        if e.ty.contains(exact) {
            Ok(())
        } else {
            Err(format!("signed overflow: {what} = {exact} in {}", e.ty))
        }
    };
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => Ok(()),
        ExprKind::Cast { operand, .. } => signed_overflow(operand, env),
        ExprKind::Unary(op, a) => {
            signed_overflow(a, env)?;
            let x = value(a)?;
            match op {
                UnOp::Neg if e.ty.signed => in_range(-x, &format!("-({x})")),
                _ => Ok(()),
            }
        }
        ExprKind::Ite(c, a, b) => {
            signed_overflow(c, env)?;
            if value(c)? != 0 {
                signed_overflow(a, env)
            } else {
                signed_overflow(b, env)
            }
        }
        ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
            signed_overflow(a, env)?;
            let first = value(a)? != 0;
            if first == (*op == BinOp::LogAnd) {
                signed_overflow(b, env)
            } else {
                Ok(())
            }
        }
        ExprKind::Binary(op, a, b) => {
            signed_overflow(a, env)?;
            signed_overflow(b, env)?;
            let (x, y) = (value(a)?, value(b)?);
            if !e.ty.signed || op.is_comparison() {
                return Ok(());
            }
            match op {
                BinOp::Add => in_range(x + y, &format!("{x} + {y}")),
                BinOp::Sub => in_range(x - y, &format!("{x} - {y}")),
                // |x|, |y| <= 2^63: the product fits in i128.
                BinOp::Mul => in_range(x * y, &format!("{x} * {y}")),
                BinOp::Div | BinOp::Rem => in_range(x / y, &format!("{x} / {y}")),
                BinOp::Shl if x < 0 => Err(format!("left shift of the negative value {x}")),
                // y < width <= 64 was checked by semantics::eval; x < 2^63.
                BinOp::Shl => in_range(x << y, &format!("{x} << {y}")),
                _ => Ok(()),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// gcc

fn work_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "semantics-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("create the test's temporary directory");
    dir
}

fn run_gcc(args: &[&str], what: &str) -> std::process::Output {
    match Command::new("gcc").args(args).output() {
        Ok(out) => out,
        Err(e) => panic!(
            "gcc is required by the semantics test ({what}): the reference values come from \
             gcc-compiled C. Running `gcc` failed: {e}"
        ),
    }
}

/// The type gcc on x86-64 must use for the ILP32 type `t`: same width and signedness. `long`
/// is 64 bits there, so it becomes `int32_t`; with `int` and `long` of equal width the usual
/// arithmetic conversions give the same widths and signedness either way (checked by the ILP32
/// run).
fn lp64_type(t: IntType) -> &'static str {
    match (t.kind, t.signed) {
        (IntKind::Bool, _) => "_Bool",
        (IntKind::Char, true) => "signed char",
        (IntKind::Char, false) => "unsigned char",
        (IntKind::Short, true) => "short",
        (IntKind::Short, false) => "unsigned short",
        (IntKind::Int, true) => "int",
        (IntKind::Int, false) => "unsigned int",
        (IntKind::Long, true) => "int32_t",
        (IntKind::Long, false) => "uint32_t",
        (IntKind::LongLong, true) => "long long",
        (IntKind::LongLong, false) => "unsigned long long",
    }
}

/// The ILP32 type of an integer constant (C11 6.4.4.1p5, `long` of 32 bits), and its value.
fn literal_ilp32(text: &str) -> Result<(i128, IntType), String> {
    let lower = text.to_ascii_lowercase();
    let digits_end = lower.find(['u', 'l']).unwrap_or(lower.len());
    let (digits, suffix) = lower.split_at(digits_end);
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    let value = u64::from_str_radix(body, radix)
        .map_err(|_| format!("bad literal {text}"))
        .map(i128::from)?;
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count();
    use IntType as T;
    let candidates: &[IntType] = match (longs, unsigned, radix == 10) {
        (0, false, true) => &[T::INT, T::LONG, T::LLONG],
        (0, false, false) => &[T::INT, T::UINT, T::LONG, T::ULONG, T::LLONG, T::ULLONG],
        (0, true, _) => &[T::UINT, T::ULONG, T::ULLONG],
        (1, false, true) => &[T::LONG, T::LLONG],
        (1, false, false) => &[T::LONG, T::ULONG, T::LLONG, T::ULLONG],
        (1, true, _) => &[T::ULONG, T::ULLONG],
        (_, false, true) => &[T::LLONG],
        (_, false, false) => &[T::LLONG, T::ULLONG],
        (_, true, _) => &[T::ULLONG],
    };
    candidates
        .iter()
        .find(|t| t.contains(value))
        .map(|t| (value, *t))
        .ok_or(format!("literal {text} fits no type"))
}

/// Rewrites an expression written for ILP32 into one with the same meaning for gcc on x86-64:
/// type names in casts and `sizeof` become [`lp64_type`]s, integer literals become casts of
/// their value to their ILP32 type (`1L` is 32 bits in ILP32, 64 on x86-64).
fn to_lp64(expr: &str) -> Result<String, String> {
    const TYPE_WORDS: [&str; 7] = [
        "unsigned", "signed", "char", "short", "int", "long", "_Bool",
    ];
    let chars: Vec<char> = expr.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let word_at = |i: usize| {
        let mut j = i;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
            j += 1;
        }
        (chars[i..j].iter().collect::<String>(), j)
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() || c == '_' {
            let (w, mut j) = word_at(i);
            if !TYPE_WORDS.contains(&w.as_str()) {
                out.push_str(&w);
                i = j;
                continue;
            }
            // A run of type keywords, possibly separated by blanks.
            let mut words = vec![w];
            loop {
                let mut k = j;
                while k < chars.len() && chars[k] == ' ' {
                    k += 1;
                }
                if k < chars.len() && (chars[k].is_ascii_alphabetic() || chars[k] == '_') {
                    let (w2, j2) = word_at(k);
                    if TYPE_WORDS.contains(&w2.as_str()) {
                        words.push(w2);
                        j = j2;
                        continue;
                    }
                }
                break;
            }
            let name = words.join(" ");
            let t = parse_type(&name).ok_or(format!("bad type name '{name}'"))?;
            out.push_str(lp64_type(t));
            i = j;
        } else if c.is_ascii_digit() {
            let (w, j) = word_at(i);
            let (value, t) = literal_ilp32(&w)?;
            let _ = write!(out, "(({}){})", lp64_type(t), c_literal(value));
            i = j;
        } else if c == '\'' {
            // A character constant: the same on both targets (plain char is signed on both,
            // and -fsigned-char makes sure).
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '\'' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let lit: String = chars[i..(j + 1).min(chars.len())].iter().collect();
            out.push_str(&lit);
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    Ok(out)
}

/// Compiles and runs one program that prints every case's value; returns them in table order.
fn gcc_values(cases: &[Case], dir: &Path) -> Vec<Result<i128, String>> {
    let mut prog = String::from(
        "#include <stdint.h>\n#include <stdio.h>\n\n/* Generated by engine/tests/semantics.rs. */\nint main(void) {\n",
    );
    let mut rewritten = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let expr = match to_lp64(&case.expr) {
            Ok(e) => e,
            Err(e) => {
                rewritten.push(Err(e));
                continue;
            }
        };
        rewritten.push(Ok(()));
        let _ = writeln!(prog, "  {{ /* table line {} */", case.line);
        for i in &case.inputs {
            let t = lp64_type(i.ty);
            // volatile: the value is computed at run time, not by gcc's constant folder.
            let _ = writeln!(
                prog,
                "    volatile {t} {} = ({t}){};",
                i.name,
                c_literal(i.value)
            );
        }
        let t = lp64_type(case.ty);
        let _ = writeln!(prog, "    {t} {RESULT} = ({expr});");
        let _ = writeln!(prog, "    printf(\"{n} %lld\\n\", (long long){RESULT});");
        prog.push_str("  }\n");
    }
    prog.push_str("  return 0;\n}\n");
    let src = dir.join("reference.c");
    let exe = dir.join("reference");
    std::fs::write(&src, &prog).unwrap();
    let out = run_gcc(
        &[
            "-std=gnu11",
            "-O0",
            "-fwrapv",
            "-fsigned-char",
            "-w",
            "-o",
            exe.to_str().unwrap(),
            src.to_str().unwrap(),
        ],
        "compiling the reference program",
    );
    assert!(
        out.status.success(),
        "gcc cannot compile {}:\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(run.status.success(), "{} failed", exe.display());
    let mut values: BTreeMap<usize, i128> = BTreeMap::new();
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let (n, v) = line.split_once(' ').expect("'N VALUE' lines");
        values.insert(n.parse().unwrap(), v.parse().unwrap());
    }
    cases
        .iter()
        .zip(rewritten)
        .enumerate()
        .map(|(n, (case, rw))| {
            rw?;
            // The program printed the value converted to long long; back to the case's type.
            values
                .get(&n)
                .map(|v| case.ty.wrap(*v))
                .ok_or_else(|| "no output from the reference program".to_string())
        })
        .collect()
}

/// Checks every case in true ILP32 mode as an integer constant expression (the inputs become
/// macros for constants): its type, its value against `values`, and, with `-pedantic-errors`,
/// that it is a constant expression at all, which signed overflow and bad shifts prevent.
/// Returns the failures per case index.
fn gcc_ilp32_check(cases: &[Case], values: &[Result<i128, String>], dir: &Path) -> Vec<String> {
    let mut text = String::from("/* Generated by engine/tests/semantics.rs. */\n");
    text.push_str("_Static_assert(sizeof(long) == 4 && sizeof(long long) == 8, \"ILP32\");\n");
    // Source line of the generated file -> case index.
    let mut owner: BTreeMap<usize, usize> = BTreeMap::new();
    for (n, (case, value)) in cases.iter().zip(values).enumerate() {
        let Ok(value) = value else { continue };
        if case.wraps {
            // Overflow makes it no constant expression; the -fwrapv run gave its value.
            continue;
        }
        for i in &case.inputs {
            let _ = writeln!(
                text,
                "#define {} (({}){})",
                i.name,
                i.ty,
                c_literal(i.value)
            );
        }
        owner.insert(text.lines().count() + 1, n);
        let (e, t) = (&case.expr, &case.ty_text);
        let _ = writeln!(
            text,
            "_Static_assert(__builtin_types_compatible_p(__typeof__({e}), {t}), \"type\"); \
             _Static_assert(({e}) == ({t}){}, \"value\");",
            c_literal(*value)
        );
        for i in &case.inputs {
            let _ = writeln!(text, "#undef {}", i.name);
        }
    }
    let src = dir.join("ilp32.c");
    std::fs::write(&src, &text).unwrap();
    let out = run_gcc(
        &[
            "-m32",
            "-std=c11",
            "-fsyntax-only",
            "-pedantic-errors",
            "-fsigned-char",
            "-w",
            src.to_str().unwrap(),
        ],
        "checking the table in ILP32 mode",
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut failures = Vec::new();
    for l in stderr.lines().filter(|l| l.contains("error")) {
        let line: Option<usize> = l
            .strip_prefix(src.to_str().unwrap())
            .and_then(|r| r.strip_prefix(':'))
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok());
        match line.and_then(|n| owner.get(&n)) {
            Some(&n) => failures.push(format!("{}\n    gcc -m32: {l}", cases[n].title())),
            None => failures.push(format!("gcc -m32: {l}")),
        }
    }
    if !out.status.success() && failures.is_empty() {
        failures.push(format!("gcc -m32 failed:\n{stderr}"));
    }
    failures
}

// ---------------------------------------------------------------------------------------------
// The formula side

fn control(location: NodeId) -> ControlState {
    ControlState {
        location,
        stack: Rc::new(Vec::new()),
        counters: None,
        beyond: false,
    }
}

/// The path formula of the case's path, as the analyses build it (one `sp` per edge).
fn path_formula(low: &Lowered, encoder: &Encoder) -> PathFormula {
    let mut pf = PathFormula::empty(SsaMap::default());
    for e in &low.path {
        pf = encoder.sp(&pf, e, &control(e.from), &control(e.to));
    }
    pf
}

/// A model value (a literal) as the C value of type `ty`.
fn c_value(t: &Term, ty: IntType, encoding: Encoding) -> Result<i128, String> {
    match encoding {
        Encoding::Bv => match t.as_bv() {
            // The bit pattern, read as signed or unsigned per the type.
            Some((bits, w)) if w == ty.bits() => Ok(ty.wrap(bits as i128)),
            _ => Err(format!("not a {}-bit literal: {t}", ty.bits())),
        },
        Encoding::Int => t
            .as_int()
            .and_then(|n| n.to_string().parse::<i128>().ok())
            .ok_or(format!("not an integer literal: {t}")),
    }
}

struct Outcome {
    approximated: bool,
    /// The solver's value when it differs from gcc's (allowed only for approximated formulas).
    other_value: Option<i128>,
}

/// Checks the formula `formula` of a case against the gcc value `expected` of `r`.
fn check_formula(
    smt: &mut dyn Smt,
    formula: &Term,
    approximated: bool,
    r: &Term,
    expected: &Term,
    ty: IntType,
    encoding: Encoding,
) -> Result<Outcome, String> {
    let err = |e: cpa_engine::smt::EngineError| format!("solver error: {e}");
    let expected_value = c_value(expected, ty, encoding)?;
    let values = smt
        .model(std::slice::from_ref(formula), std::slice::from_ref(r))
        .map_err(err)?
        .ok_or("the formula is unsatisfiable")?;
    let found = c_value(&values[0], ty, encoding)?;
    if !approximated {
        if found != expected_value {
            return Err(format!(
                "solver finds {found}, gcc computes {expected_value}"
            ));
        }
        // The encoding determines the value: no model with another one.
        let other = Term::not(Term::eq(r.clone(), expected.clone()));
        return match smt.check(&[formula.clone(), other]).map_err(err)? {
            Sat::Unsat => Ok(Outcome {
                approximated,
                other_value: None,
            }),
            Sat::Sat => Err(format!(
                "the formula admits values other than {expected_value}"
            )),
            Sat::Unknown(r) => Err(format!("solver answers unknown: {r}")),
        };
    }
    // An over-approximation must at least admit the real value.
    let same = Term::eq(r.clone(), expected.clone());
    match smt.check(&[formula.clone(), same]).map_err(err)? {
        Sat::Sat => Ok(Outcome {
            approximated,
            other_value: (found != expected_value).then_some(found),
        }),
        Sat::Unsat => Err(format!(
            "unsound approximation: the formula excludes gcc's value {expected_value} (solver finds {found})"
        )),
        Sat::Unknown(r) => Err(format!("solver answers unknown: {r}")),
    }
}

/// Both checks (formula as built, and with the inputs substituted) for one encoding.
fn check_encoding(
    smt: &mut dyn Smt,
    low: &Lowered,
    ty: IntType,
    expected: i128,
    encoding: Encoding,
) -> Result<Outcome, String> {
    let encoder = Encoder::new(&low.cfa, encoding);
    let pf = path_formula(low, &encoder);
    if pf.approximated && encoding == Encoding::Bv {
        return Err("the bit-vector formula is marked approximated".into());
    }
    let slot = |v: VarId| Slot {
        var: v,
        instance: 0,
    };
    let idx = pf.ssa.get(slot(low.result)).ok_or("result not assigned")?;
    let r = encoder.symbol(slot(low.result), idx);
    let expected_term = encoder.constant(ty, expected);
    let outcome = check_formula(
        smt,
        &pf.formula,
        pf.approximated,
        &r,
        &expected_term,
        ty,
        encoding,
    )?;
    // The inputs substituted by literals: the term layer folds the operations.
    let mut map = BTreeMap::new();
    for (v, t, value) in &low.inputs {
        let i = pf.ssa.get(slot(*v)).ok_or("input not assigned")?;
        let sym = encoder.symbol(slot(*v), i);
        let var: Var = sym.as_var().ok_or("symbol is not a variable")?.clone();
        map.insert(var, encoder.constant(*t, *value));
    }
    let folded = pf.formula.substitute(&map);
    check_formula(
        smt,
        &folded,
        pf.approximated,
        &r,
        &expected_term,
        ty,
        encoding,
    )
    .map_err(|e| format!("after substituting the inputs: {e}"))?;
    Ok(outcome)
}

fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/semantics/expressions.txt")
}

fn load_table() -> Vec<Case> {
    let text = std::fs::read_to_string(table_path()).expect("read the semantics table");
    parse_table(&text).unwrap_or_else(|errors| panic!("bad table:\n{}", errors.join("\n")))
}

fn has_bit_operation(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => false,
        ExprKind::Unary(_, a) | ExprKind::Cast { operand: a, .. } => has_bit_operation(a),
        ExprKind::Binary(op, a, b) => {
            matches!(
                op,
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
            ) || has_bit_operation(a)
                || has_bit_operation(b)
        }
        ExprKind::Ite(c, a, b) => {
            has_bit_operation(c) || has_bit_operation(a) || has_bit_operation(b)
        }
    }
}

#[test]
fn expressions_agree_with_gcc() {
    let cases = load_table();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let dir = work_dir();
    let values = gcc_values(&cases, &dir);
    let mut failures = Vec::new();
    let ilp32 = if cfg!(target_arch = "x86_64") || cfg!(target_arch = "x86") {
        gcc_ilp32_check(&cases, &values, &dir)
    } else {
        // gcc for other architectures has no -m32; the run above still gives the values.
        eprintln!("note: not on x86, the gcc -m32 (ILP32) check is skipped");
        Vec::new()
    };
    failures.extend(ilp32);

    let mut bv = BridgeSmt::new(NativeZ3::new().expect("z3 is required"));
    let mut int = BridgeSmt::new(NativeZ3::new().expect("z3 is required"));
    let mut approximated = Vec::new();
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    for (case, value) in cases.iter().zip(&values) {
        *per_category.entry(&case.category).or_default() += 1;
        let mut fail = |what: String| failures.push(format!("{}\n    {what}", case.title()));
        let expected = match value {
            Ok(v) => *v,
            Err(e) => {
                fail(format!("gcc: {e}"));
                continue;
            }
        };
        let low = match lower(case) {
            Ok(l) => l,
            Err(e) => {
                fail(e);
                continue;
            }
        };
        let env = low.env();
        if case.wraps {
            if let Err(ub) = undefined_behaviour_except_overflow(&low.expr, &env) {
                fail(format!("undefined behaviour: {ub}"));
                continue;
            }
            if signed_overflow(&low.expr, &env).is_ok() {
                fail(format!("no signed overflow: remove the marker '# {WRAPS}'"));
            }
        } else if let Err(ub) = undefined_behaviour(&low.expr, &env) {
            fail(format!("undefined behaviour: {ub}"));
            continue;
        }
        match semantics::eval(&low.expr, &env) {
            Ok(v) if v == expected => {}
            Ok(v) => fail(format!(
                "semantics::eval gives {v}, gcc computes {expected}"
            )),
            Err(e) => fail(format!("semantics::eval fails: {e}")),
        }
        let smts: [(Encoding, &mut dyn Smt); 2] =
            [(Encoding::Bv, &mut bv), (Encoding::Int, &mut int)];
        for (encoding, smt) in smts {
            match check_encoding(smt, &low, case.ty, expected, encoding) {
                // The table records which formulas are approximated: a case that becomes
                // approximated would silently get the weaker check.
                Ok(o) if encoding == Encoding::Int && o.approximated != case.int_approximated => {
                    fail(if o.approximated {
                        format!("the Int formula is approximated; the table does not say so (append '# {APPROXIMATED}' if intended)")
                    } else {
                        format!("the Int formula is exact; remove the marker '# {APPROXIMATED}'")
                    })
                }
                Ok(o) if o.approximated => {
                    if !has_bit_operation(&low.expr) {
                        fail(format!(
                            "{encoding:?}: approximated although the expression has no bit operation"
                        ));
                    }
                    let note = match o.other_value {
                        Some(v) => format!("solver's model: {v}, gcc: {expected}"),
                        None => format!("solver's model agrees: {expected}"),
                    };
                    approximated.push(format!("{}  ({note})", case.title()));
                }
                Ok(_) => {}
                Err(e) => fail(format!("{encoding:?} encoding: {e}")),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    println!("{} cases:", cases.len());
    for (c, n) in &per_category {
        println!("  {c}: {n}");
    }
    println!(
        "Int encoding: {} approximated cases (formula admits gcc's value):",
        approximated.len()
    );
    for a in &approximated {
        println!("  {a}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The checker of undefined behaviour is not vacuous: each of these is undefined in C.
#[test]
fn undefined_behaviour_is_detected() {
    let table = "## ub
unsigned short a = 65535 -> int: a * a
int a = 2147483647 -> int: a + 1
int a = -2147483648 -> int: a - 1
int a = -2147483648 -> int: -a
long a = 2147483647 -> long: a + 1
long long a = -9223372036854775808 -> long long: a - 1
long long a = 4294967296 -> long long: a * a
int a = -2147483648, b = -1 -> int: a / b
int a = -2147483648, b = -1 -> int: a % b
int a = 1, b = 0 -> int: a / b
int a = 1, b = 0 -> int: a % b
unsigned int a = 1, b = 0 -> unsigned int: a / b
int a = 1 -> int: a << 31
unsigned char a = 128 -> int: a << 24
int a = -1 -> int: a << 1
int a = 1, b = 32 -> int: a << b
int a = 1, b = -1 -> int: a >> b
unsigned long long a = 1; int b = 64 -> unsigned long long: a << b
int a = 0, b = 0 -> int: a ? 1 : 1 / b
int a = 1, b = 0 -> int: a && 1 / b
int a = 0, b = 0 -> int: a || 1 % b
";
    let cases = parse_table(table).unwrap();
    for case in &cases {
        let low = lower(case).unwrap_or_else(|e| panic!("{}: {e}", case.title()));
        assert!(
            undefined_behaviour(&low.expr, &low.env()).is_err(),
            "not detected: {}",
            case.title()
        );
    }
    // The same operations without undefined behaviour pass.
    let defined = "## defined
unsigned short a = 65535 -> unsigned int: a * 1u * a
int a = 2147483646 -> int: a + 1
int a = 1, b = 0 -> int: a || 1 / b
int a = 0, b = 0 -> int: a && 1 % b
int a = 1, b = 0 -> int: a ? 1 : 1 / b
int a = 1 -> int: a << 30
unsigned int a = 1, b = 31 -> unsigned int: a << b
";
    for case in &parse_table(defined).unwrap() {
        let low = lower(case).unwrap();
        assert_eq!(
            undefined_behaviour(&low.expr, &low.env()),
            Ok(()),
            "{}",
            case.title()
        );
    }
}

/// The table parser and the ILP32 helpers the test relies on.
#[test]
fn table_helpers() {
    assert_eq!(parse_type("unsigned"), Some(IntType::UINT));
    assert_eq!(parse_type("long long int"), Some(IntType::LLONG));
    assert_eq!(parse_type("unsigned long"), Some(IntType::ULONG));
    assert_eq!(parse_type("signed char"), Some(IntType::CHAR));
    assert_eq!(parse_type("short int"), Some(IntType::SHORT));
    assert_eq!(parse_type("long char"), None);
    assert_eq!(parse_type("_Bool int"), None);
    assert_eq!(parse_value("-0x10"), Some(-16));
    assert_eq!(parse_value("1e3"), None);
    assert_eq!(
        literal_ilp32("2147483648"),
        Ok((2147483648, IntType::LLONG))
    );
    assert_eq!(literal_ilp32("0x80000000"), Ok((2147483648, IntType::UINT)));
    assert_eq!(literal_ilp32("1L"), Ok((1, IntType::LONG)));
    assert_eq!(literal_ilp32("010"), Ok((8, IntType::INT)));
    assert_eq!(
        to_lp64("(unsigned long)a + 1L").unwrap(),
        "(uint32_t)a + ((int32_t)1LL)"
    );
    assert_eq!(to_lp64("(long long)'\\xff'").unwrap(), "(long long)'\\xff'");
    let inputs = parse_inputs("unsigned char a = 250, b = 10; int c = -1").unwrap();
    assert_eq!(inputs.len(), 3);
    assert_eq!((inputs[1].ty, inputs[1].value), (IntType::UCHAR, 10));
    assert!(parse_inputs("unsigned char a = 256").is_err());
}

/// `INT_MIN / -1` overflows; x86 traps on it even with gcc's `-fwrapv`, so gcc cannot be the
/// reference. The project's semantics wraps it to INT_MIN (and `INT_MIN % -1` is 0); the
/// concrete semantics and both encodings must agree on that, for a constant and a variable
/// divisor.
#[test]
fn division_overflow_wraps_in_every_layer() {
    let table = "## division-overflow
int a = -2147483648 -> int: a / -1
int a = -2147483648, b = -1 -> int: a / b
int a = -2147483648 -> int: a % -1
int a = -2147483648, b = -1 -> int: a % b
long long a = -9223372036854775808, b = -1 -> long long: a / b
";
    let mut bv = BridgeSmt::new(NativeZ3::new().expect("z3 is required"));
    let mut int = BridgeSmt::new(NativeZ3::new().expect("z3 is required"));
    for case in &parse_table(table).unwrap() {
        let low = lower(case).unwrap_or_else(|e| panic!("{}: {e}", case.title()));
        let env = low.env();
        let expected = semantics::eval(&low.expr, &env).unwrap();
        let wrapped = if case.expr.contains('/') {
            case.ty.min_value()
        } else {
            0
        };
        assert_eq!(expected, wrapped, "{}", case.title());
        let smts: [(Encoding, &mut dyn Smt); 2] =
            [(Encoding::Bv, &mut bv), (Encoding::Int, &mut int)];
        for (encoding, smt) in smts {
            let o = check_encoding(smt, &low, case.ty, expected, encoding)
                .unwrap_or_else(|e| panic!("{} {encoding:?}: {e}", case.title()));
            assert!(!o.approximated, "{}", case.title());
        }
    }
}
