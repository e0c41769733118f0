//! SMT-LIB printing. Deterministic: a term always prints the same text (no whitespace
//! variation), so solver logs and replays are reproducible.
//!
//! Terms are DAGs (LBE merges and SSA unification share subterms through `Rc`), and a DAG
//! printed as a tree can be exponentially larger (a merge of two paths refers to their common
//! prefix twice; ten merged diamonds printed 47 MB for `test_locks_8`). A term whose tree size
//! exceeds twice its DAG size is printed with `let` bindings for its shared subterms: grouped
//! by level (a binding refers only to bindings of earlier groups), so the nesting depth is
//! the depth of the sharing, not the number of shared nodes. Small or tree-shaped terms print
//! plainly. Quantifier bodies always print plainly (a binding outside would not see the bound
//! variables).

use super::{AddrMap, AddrSet, Op, Quantifier, Term, TermKind};
use num_traits::ToPrimitive;
use std::borrow::Cow;
use std::collections::BTreeMap;
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

fn is_symbol_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'~' | b'!'
                | b'@'
                | b'$'
                | b'%'
                | b'^'
                | b'&'
                | b'*'
                | b'_'
                | b'-'
                | b'+'
                | b'='
                | b'<'
                | b'>'
                | b'.'
                | b'?'
                | b'/'
        )
}

/// True if `s` may be printed unquoted. (On bytes: a symbol character is ASCII, so a byte of
/// a multi-byte character fails the test as its character did. Every reserved word starts
/// with a letter, `_` or `!`: other names skip the look-up, such as every symbolic
/// identifier `$sN` of every state label.)
pub fn is_simple_symbol(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    !first.is_ascii_digit()
        && b.iter().all(|&c| is_symbol_byte(c))
        && !((first.is_ascii_alphabetic() || first == b'_' || first == b'!')
            && RESERVED.contains(&s))
}

/// `s` as an SMT-LIB symbol: unchanged if simple, otherwise `|s|`.
pub fn quote_symbol(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    let _ = write_symbol(s, &mut out);
    out
}

/// Writes [`quote_symbol`]'s text without building it (the printer's hot path: every
/// variable occurrence of every query).
pub(crate) fn write_symbol(s: &str, out: &mut impl Write) -> fmt::Result {
    if is_simple_symbol(s) {
        out.write_str(s)
    } else {
        out.write_char('|')?;
        out.write_str(s)?;
        out.write_char('|')
    }
}

/// The SMT-LIB name of an operator (indexed ones as `(_ name i ...)`).
pub(crate) fn op_symbol(op: &Op) -> Cow<'static, str> {
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
        Divisible(n) => return format!("(_ divisible {n})").into(),
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
        Extract(hi, lo) => return format!("(_ extract {hi} {lo})").into(),
        ZeroExtend(n) => return format!("(_ zero_extend {n})").into(),
        SignExtend(n) => return format!("(_ sign_extend {n})").into(),
        Bv2Nat => "bv2nat",
        Int2Bv(w) => return format!("(_ int2bv {w})").into(),
    };
    Cow::Borrowed(s)
}

/// Names of let-bound subterms, by node address.
type Names = AddrMap<String>;

fn write_term(t: &Term, names: &Names, out: &mut impl Write) -> fmt::Result {
    if let Some(n) = names.get(&t.addr()) {
        return out.write_str(n);
    }
    write_node(t, names, out)
}

/// Writes `t`'s own top symbol, whether or not `t` itself has a name.
fn write_node(t: &Term, names: &Names, out: &mut impl Write) -> fmt::Result {
    match t.kind() {
        TermKind::Bool(b) => out.write_str(if *b { "true" } else { "false" }),
        TermKind::Int(n) => match n.to_i64() {
            // Machine-sized literals (nearly all) without the big integer's formatting.
            Some(v) if v < 0 => write!(out, "(- {})", v.unsigned_abs()),
            Some(v) => write!(out, "{v}"),
            None if n.sign() == num_bigint::Sign::Minus => write!(out, "(- {})", -n),
            None => write!(out, "{n}"),
        },
        TermKind::BitVec { value, width } => {
            if width % 4 == 0 {
                write!(out, "#x{:0w$x}", value, w = (*width / 4) as usize)
            } else {
                write!(out, "#b{:0w$b}", value, w = *width as usize)
            }
        }
        TermKind::Var(v) => write_symbol(&v.name, out),
        TermKind::App(op, args) => {
            out.write_char('(')?;
            out.write_str(&op_symbol(op))?;
            for a in args.iter() {
                out.write_char(' ')?;
                write_term(a, names, out)?;
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
                out.write_char('(')?;
                write_symbol(&v.name, out)?;
                write!(out, " {})", v.sort)?;
            }
            out.write_str(") ")?;
            write_term(body, &Names::default(), out)?;
            out.write_char(')')
        }
    }
}

/// Subterms smaller than this are repeated rather than bound.
const MIN_SHARED_SIZE: u64 = 4;

/// Prints `t` with `let` bindings for the application nodes it reaches more than once.
fn write_shared(t: &Term, out: &mut impl Write) -> fmt::Result {
    // Parents per node (edges of the DAG outside quantifier bodies), and a post-order.
    let mut parents: AddrMap<u32> = AddrMap::default();
    let mut post: Vec<Term> = Vec::new();
    let mut seen = AddrSet::default();
    let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
    while let Some((n, done)) = stack.pop() {
        if done {
            post.push(n);
            continue;
        }
        if !seen.insert(n.addr()) {
            continue;
        }
        stack.push((n.clone(), true));
        if let TermKind::App(_, args) = n.kind() {
            for a in args.iter().rev() {
                *parents.entry(a.addr()).or_default() += 1;
                stack.push((a.clone(), false));
            }
        }
    }
    let is_shared = |n: &Term| {
        matches!(n.kind(), TermKind::App(..))
            && n.0.size >= MIN_SHARED_SIZE
            && parents.get(&n.addr()).copied().unwrap_or(0) >= 2
    };
    // Level: 1 + the highest level of a shared node below (reached without passing another
    // shared node); 0 for nodes with no shared node below.
    let mut below: AddrMap<u32> = AddrMap::default();
    let mut groups: BTreeMap<u32, Vec<Term>> = BTreeMap::new();
    for n in &post {
        let inner = match n.kind() {
            TermKind::App(_, args) => args
                .iter()
                .map(|a| below.get(&a.addr()).copied().unwrap_or(0))
                .max()
                .unwrap_or(0),
            _ => 0,
        };
        if n.addr() != t.addr() && is_shared(n) {
            groups.entry(inner + 1).or_default().push(n.clone());
            below.insert(n.addr(), inner + 1);
        } else {
            below.insert(n.addr(), inner);
        }
    }
    // A name prefix no free variable starts with.
    let free: Vec<String> = t.free_vars().iter().map(|v| v.name.to_string()).collect();
    let mut prefix = String::from("t!");
    while free.iter().any(|v| v.starts_with(&prefix)) {
        prefix.push('!');
    }
    let mut names = Names::default();
    let mut counter = 0usize;
    for group in groups.values() {
        out.write_str("(let (")?;
        let mut fresh = Vec::new();
        for (i, n) in group.iter().enumerate() {
            counter += 1;
            let name = format!("{prefix}{counter}");
            if i > 0 {
                out.write_char(' ')?;
            }
            write!(out, "({name} ")?;
            write_node(n, &names, out)?;
            out.write_char(')')?;
            fresh.push((n.addr(), name));
        }
        out.write_str(") ")?;
        names.extend(fresh);
    }
    write_node(t, &names, out)?;
    for _ in 0..groups.len() {
        out.write_char(')')?;
    }
    Ok(())
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // size > 2·dag_size, with dag_size < ⌈size/2⌉ as the same test on integers.
        if self.0.size > 64 && self.dag_size_below(self.0.size.div_ceil(2)) {
            write_shared(self, f)
        } else {
            write_node(self, &Names::default(), f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Sort, Term};

    /// Which names print unquoted: symbol characters only, no leading digit, no reserved word
    /// (and every reserved word starts where the look-up expects it).
    #[test]
    fn simple_symbols() {
        use super::{is_simple_symbol, RESERVED};
        for w in RESERVED {
            let first = w.as_bytes()[0];
            assert!(
                first.is_ascii_alphabetic() || first == b'_' || first == b'!',
                "{w}"
            );
            assert!(!is_simple_symbol(w), "{w}");
        }
        for (name, simple) in [
            ("x", true),
            ("$s12", true),
            ("__pred3", true),
            ("$allsat0", true),
            ("a.b-c+d", true),
            ("!x", true),
            ("_x", true),
            ("let", false),
            ("get-value", false),
            ("main::x", false),
            ("main::x#3", false),
            ("1x", false),
            ("", false),
            ("x y", false),
            ("xé", false),
            ("|x|", false),
        ] {
            assert_eq!(is_simple_symbol(name), simple, "{name:?}");
        }
    }

    /// `n` merged diamonds: each level refers to the previous one twice.
    fn diamonds(n: usize) -> Term {
        let mut t = Term::new_var("x", Sort::Int);
        for i in 0..n {
            let y = Term::new_var(format!("y{i}"), Sort::Int);
            let both = Term::add2(t.clone(), Term::mul(Term::int(2), y));
            t = Term::ite(Term::gt(t.clone(), Term::int(0)), both, t);
        }
        Term::ge(t, Term::int(0))
    }

    #[test]
    fn shared_subterms_print_with_let_and_parse_back_equal() {
        let t = diamonds(12);
        let text = t.to_string();
        assert!(text.len() < 3_000, "{} bytes: {text}", text.len());
        assert!(text.starts_with("(let ((t!1 "));
        let decls = crate::parse::Declarations::from_vars(&t.free_vars());
        let back = crate::parse::parse_term(&text, &decls).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn small_terms_print_plainly() {
        let t = diamonds(2);
        assert!(!t.to_string().contains("let"));
    }
}
