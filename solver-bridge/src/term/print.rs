//! SMT-LIB printing. Deterministic: a term always prints the same text (no `let`, no
//! whitespace variation), so solver logs and replays are reproducible.

use super::{Op, Quantifier, Term, TermKind};
use std::fmt::{self, Write};

/// Reserved words of SMT-LIB 2.6 (and command names, which the grammar also reserves).
const RESERVED: &[&str] = &[
    "BINARY",
    "DECIMAL",
    "HEXADECIMAL",
    "NUMERAL",
    "STRING",
    "_",
    "!",
    "as",
    "let",
    "exists",
    "forall",
    "match",
    "par",
    "assert",
    "check-sat",
    "check-sat-assuming",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "declare-fun",
    "declare-sort",
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "define-sort",
    "echo",
    "exit",
    "get-assertions",
    "get-assignment",
    "get-info",
    "get-model",
    "get-option",
    "get-proof",
    "get-unsat-assumptions",
    "get-unsat-core",
    "get-value",
    "pop",
    "push",
    "reset",
    "reset-assertions",
    "set-info",
    "set-logic",
    "set-option",
];

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

/// True if `s` may be printed unquoted.
pub fn is_simple_symbol(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    !first.is_ascii_digit() && s.chars().all(is_symbol_char) && !RESERVED.contains(&s)
}

/// `s` as an SMT-LIB symbol: unchanged if simple, otherwise `|s|`.
pub fn quote_symbol(s: &str) -> String {
    if is_simple_symbol(s) {
        s.to_string()
    } else {
        format!("|{s}|")
    }
}

/// The SMT-LIB name of an operator (indexed ones as `(_ name i ...)`).
pub(crate) fn op_symbol(op: &Op) -> String {
    use Op::*;
    let s = match op {
        Not => "not",
        And => "and",
        Or => "or",
        Implies => "=>",
        Xor => "xor",
        Eq => "=",
        Distinct => "distinct",
        Ite => "ite",
        Neg | Sub => "-",
        Add => "+",
        Mul => "*",
        Div => "div",
        Mod => "mod",
        Abs => "abs",
        Le => "<=",
        Lt => "<",
        Ge => ">=",
        Gt => ">",
        Divisible(n) => return format!("(_ divisible {n})"),
        BvNot => "bvnot",
        BvNeg => "bvneg",
        BvAnd => "bvand",
        BvOr => "bvor",
        BvXor => "bvxor",
        BvAdd => "bvadd",
        BvSub => "bvsub",
        BvMul => "bvmul",
        BvUdiv => "bvudiv",
        BvUrem => "bvurem",
        BvSdiv => "bvsdiv",
        BvSrem => "bvsrem",
        BvSmod => "bvsmod",
        BvShl => "bvshl",
        BvLshr => "bvlshr",
        BvAshr => "bvashr",
        BvUlt => "bvult",
        BvUle => "bvule",
        BvUgt => "bvugt",
        BvUge => "bvuge",
        BvSlt => "bvslt",
        BvSle => "bvsle",
        BvSgt => "bvsgt",
        BvSge => "bvsge",
        Concat => "concat",
        Extract(hi, lo) => return format!("(_ extract {hi} {lo})"),
        ZeroExtend(n) => return format!("(_ zero_extend {n})"),
        SignExtend(n) => return format!("(_ sign_extend {n})"),
        Bv2Nat => "bv2nat",
        Int2Bv(w) => return format!("(_ int2bv {w})"),
    };
    s.to_string()
}

fn write_term(t: &Term, out: &mut impl Write) -> fmt::Result {
    match t.kind() {
        TermKind::Bool(b) => out.write_str(if *b { "true" } else { "false" }),
        TermKind::Int(n) => {
            if n.sign() == num_bigint::Sign::Minus {
                write!(out, "(- {})", -n)
            } else {
                write!(out, "{n}")
            }
        }
        TermKind::BitVec { value, width } => {
            if width % 4 == 0 {
                write!(out, "#x{:0w$x}", value, w = (*width / 4) as usize)
            } else {
                write!(out, "#b{:0w$b}", value, w = *width as usize)
            }
        }
        TermKind::Var(v) => out.write_str(&quote_symbol(&v.name)),
        TermKind::App(op, args) => {
            out.write_char('(')?;
            out.write_str(&op_symbol(op))?;
            for a in args.iter() {
                out.write_char(' ')?;
                write_term(a, out)?;
            }
            out.write_char(')')
        }
        TermKind::Quant(q, vars, body) => {
            out.write_str(match q {
                Quantifier::Forall => "(forall (",
                Quantifier::Exists => "(exists (",
            })?;
            for (i, v) in vars.iter().enumerate() {
                if i > 0 {
                    out.write_char(' ')?;
                }
                write!(out, "({} {})", quote_symbol(&v.name), v.sort)?;
            }
            out.write_str(") ")?;
            write_term(body, out)?;
            out.write_char(')')
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_term(self, f)
    }
}
