//! SMT-LIB text to [`Term`]s: declarations, terms, scripts.
//!
//! The grammar comes from smtlib-lowlevel (one item at a time, see [`crate::sexp`]); this
//! module resolves symbols against the declarations, checks sorts, expands `let`, and builds
//! terms with the simplifying constructors.

use crate::sexp::{self, line_col};
use crate::term::{Op, Quantifier, Sort, Term, Var};
use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;
use smtlib_lowlevel::ast::{
    self as ll, Attribute, AttributeValue, Command, Identifier, Index, QualIdentifier, SpecConstant,
};
use smtlib_lowlevel::Storage;
use std::collections::BTreeMap;
use std::fmt;

/// Malformed or ill-sorted input, with its position (1-based line and column) when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub line: usize,
    pub col: usize,
}

impl ParseError {
    fn at(text: &str, offset: usize, message: impl Into<String>) -> ParseError {
        let (line, col) = line_col(text, offset);
        ParseError {
            message: message.into(),
            line,
            col,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Declared constant symbols and their sorts (the symbol table terms are parsed against).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declarations {
    symbols: BTreeMap<String, Sort>,
}

impl Declarations {
    pub fn new() -> Declarations {
        Declarations::default()
    }

    /// Declarations for the free variables of `terms`.
    pub fn from_vars<'a>(vars: impl IntoIterator<Item = &'a Var>) -> Declarations {
        let mut d = Declarations::new();
        for v in vars {
            d.symbols.insert(v.name.to_string(), v.sort);
        }
        d
    }

    /// Declares `name`; redeclaring with the same sort is allowed, with another sort is not.
    pub fn declare(&mut self, name: &str, sort: Sort) -> Result<(), String> {
        match self.symbols.get(name) {
            Some(s) if *s != sort => Err(format!(
                "symbol {name} already declared with sort {s}, now {sort}"
            )),
            _ => {
                self.symbols.insert(name.to_string(), sort);
                Ok(())
            }
        }
    }

    pub fn sort_of(&self, name: &str) -> Option<Sort> {
        self.symbols.get(name).copied()
    }

    /// All declared symbols as variables, in name order.
    pub fn vars(&self) -> Vec<Var> {
        self.symbols.iter().map(|(n, s)| Var::new(n, *s)).collect()
    }
}

/// Parses one term (the whole text must be exactly one term).
pub fn parse_term(text: &str, decls: &Declarations) -> Result<Term, ParseError> {
    let items = sexp::split(text).map_err(|e| ParseError::at(text, e.offset, e.message))?;
    let [item] = items.as_slice() else {
        return Err(ParseError::at(
            text,
            items.get(1).map(|i| i.offset).unwrap_or(0),
            format!("expected one term, found {} items", items.len()),
        ));
    };
    let st = Storage::new();
    let ll_term =
        ll::Term::parse(&st, item.text).map_err(|e| grammar_error(text, item.offset, &e))?;
    let mut cx = Converter::new(decls);
    cx.term(ll_term)
        .map_err(|m| ParseError::at(text, item.offset, m))
}

/// Parses a sort (`Bool`, `Int`, `(_ BitVec w)`).
pub fn parse_sort(text: &str) -> Result<Sort, ParseError> {
    let st = Storage::new();
    let s = ll::Sort::parse(&st, text.trim()).map_err(|e| grammar_error(text, 0, &e))?;
    convert_sort(&s).map_err(|m| ParseError::at(text, 0, m))
}

/// Positions a grammar error of smtlib-lowlevel (whose error type is not exported by name; its
/// span is reached through `miette::Diagnostic`).
fn grammar_error<E: miette::Diagnostic>(text: &str, base: usize, e: &E) -> ParseError {
    let mut offset = base;
    let mut message = e.to_string();
    if let Some(label) = e.labels().and_then(|mut l| l.next()) {
        offset = base + label.offset();
        if let Some(l) = label.label() {
            message = format!("{message}: {l}");
        }
    }
    ParseError::at(text, offset, message)
}

/// An `(assert ...)` of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion {
    pub term: Term,
    /// The `:named` annotation of the asserted term, if any.
    pub name: Option<String>,
    /// 1-based line of the command.
    pub line: usize,
}

/// The declarations and assertions of an SMT-LIB script, in order.
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub declarations: Declarations,
    /// Declared symbols in declaration order.
    pub declared: Vec<Var>,
    pub assertions: Vec<Assertion>,
}

/// Parses a script of declarations (`declare-const`, 0-ary `declare-fun`, 0-ary `define-fun`
/// as a macro) and assertions. `set-logic`, `set-info`, `set-option`, `check-sat`, `get-*`,
/// `echo` and `exit` are accepted and ignored; any other command is an error.
pub fn parse_script(text: &str) -> Result<Script, ParseError> {
    let items = sexp::split(text).map_err(|e| ParseError::at(text, e.offset, e.message))?;
    let mut script = Script::default();
    let mut macros: BTreeMap<String, Term> = BTreeMap::new();
    for item in items {
        let st = Storage::new();
        let err = |m: String| ParseError::at(text, item.offset, m);
        if !item.text.starts_with('(') {
            return Err(err(format!("expected a command, found {}", item.text)));
        }
        let cmd =
            Command::parse(&st, item.text).map_err(|e| grammar_error(text, item.offset, &e))?;
        match cmd {
            Command::DeclareConst(sym, sort) | Command::DeclareFun(sym, &[], sort) => {
                let name = symbol_name(sym.0);
                let sort = convert_sort(&sort).map_err(err)?;
                if macros.contains_key(&name) || script.declarations.sort_of(&name).is_some() {
                    return Err(err(format!("symbol {name} declared twice")));
                }
                script.declarations.declare(&name, sort).map_err(err)?;
                script.declared.push(Var::new(&name, sort));
            }
            Command::DeclareFun(sym, _, _) => {
                return Err(err(format!(
                    "{}: uninterpreted functions with arguments are not supported",
                    sym.0
                )))
            }
            Command::DefineFun(ll::FunctionDef(sym, &[], sort, body)) => {
                let name = symbol_name(sym.0);
                let sort = convert_sort(&sort).map_err(err)?;
                let mut cx = Converter::new(&script.declarations);
                cx.macros = Some(&macros);
                let t = cx.term(body).map_err(err)?;
                if t.sort() != sort {
                    return Err(err(format!(
                        "define-fun {name}: body has sort {}, declared {sort}",
                        t.sort()
                    )));
                }
                if macros.contains_key(&name) || script.declarations.sort_of(&name).is_some() {
                    return Err(err(format!("symbol {name} declared twice")));
                }
                macros.insert(name, t);
            }
            Command::DefineFun(def) => {
                return Err(err(format!(
                    "{}: functions with arguments are not supported",
                    def.0
                )))
            }
            Command::Assert(t) => {
                let mut cx = Converter::new(&script.declarations);
                cx.macros = Some(&macros);
                let term = cx.term(t).map_err(err)?;
                if term.sort() != Sort::Bool {
                    return Err(err(format!("asserted term has sort {}", term.sort())));
                }
                script.assertions.push(Assertion {
                    term,
                    name: cx.names.pop(),
                    line: line_col(text, item.offset).0,
                });
            }
            Command::SetLogic(_)
            | Command::SetInfo(_)
            | Command::SetOption(_)
            | Command::CheckSat
            | Command::GetModel
            | Command::GetUnsatCore
            | Command::GetInfo(_)
            | Command::GetValue(_)
            | Command::GetProof
            | Command::GetAssertions
            | Command::Echo(_)
            | Command::Exit => {}
            other => {
                return Err(err(format!(
                    "unsupported command: {}",
                    item.head().unwrap_or(&other.to_string())
                )))
            }
        }
    }
    Ok(script)
}

/// The symbol's name without `|quotes|`.
pub(crate) fn symbol_name(s: &str) -> String {
    if s.len() >= 2 && s.starts_with('|') && s.ends_with('|') {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

fn numeral_u32(n: &ll::Index<'_>) -> Result<u32, String> {
    match n {
        Index::Numeral(n) => n
            .to_string()
            .parse::<u32>()
            .map_err(|_| format!("index {n} out of range")),
        Index::Symbol(s) => Err(format!("expected a numeral index, found {}", s.0)),
    }
}

pub(crate) fn convert_sort(s: &ll::Sort<'_>) -> Result<Sort, String> {
    match s {
        ll::Sort::Sort(Identifier::Simple(sym)) => match sym.0 {
            "Bool" => Ok(Sort::Bool),
            "Int" => Ok(Sort::Int),
            other => Err(format!("unsupported sort {other}")),
        },
        ll::Sort::Sort(Identifier::Indexed(sym, idx)) if sym.0 == "BitVec" && idx.len() == 1 => {
            let w = numeral_u32(&idx[0])?;
            if w == 0 {
                return Err("(_ BitVec 0) is not a sort".into());
            }
            Ok(Sort::BitVec(w))
        }
        other => Err(format!("unsupported sort {other}")),
    }
}

fn parse_bits(digits: &str, radix: u32, bits_per_digit: u32) -> Result<Term, String> {
    let width = (digits.len() as u64) * bits_per_digit as u64;
    if width == 0 || width > crate::term::MAX_BV_LITERAL_WIDTH as u64 {
        return Err(format!(
            "bit-vector literal of width {width} is not supported (1..=128)"
        ));
    }
    let v = u128::from_str_radix(digits, radix).map_err(|e| format!("bad literal: {e}"))?;
    Term::try_bv(v, width as u32).map_err(|e| e.message)
}

/// Converts lowlevel terms, resolving symbols innermost-binding first.
struct Converter<'d> {
    decls: &'d Declarations,
    macros: Option<&'d BTreeMap<String, Term>>,
    /// `let`-bound names and quantified variables, innermost last.
    bound: Vec<(String, Term)>,
    /// `:named` annotations met, in order.
    names: Vec<String>,
}

impl<'d> Converter<'d> {
    fn new(decls: &'d Declarations) -> Converter<'d> {
        Converter {
            decls,
            macros: None,
            bound: Vec::new(),
            names: Vec::new(),
        }
    }

    fn lookup(&self, name: &str) -> Result<Term, String> {
        if let Some((_, t)) = self.bound.iter().rev().find(|(n, _)| n == name) {
            return Ok(t.clone());
        }
        match name {
            "true" => return Ok(Term::tt()),
            "false" => return Ok(Term::ff()),
            _ => {}
        }
        if let Some(t) = self.macros.and_then(|m| m.get(name)) {
            return Ok(t.clone());
        }
        match self.decls.sort_of(name) {
            Some(sort) => Ok(Term::new_var(name, sort)),
            None => Err(format!("unknown symbol {name}")),
        }
    }

    fn term(&mut self, t: &ll::Term<'_>) -> Result<Term, String> {
        match t {
            ll::Term::SpecConstant(c) => match c {
                SpecConstant::Numeral(n) => {
                    let v: BigInt = n
                        .to_string()
                        .parse()
                        .map_err(|_| format!("bad numeral {n}"))?;
                    Ok(Term::int(v))
                }
                SpecConstant::Hexadecimal(h) => parse_bits(h.0.get(2..).unwrap_or(""), 16, 4),
                SpecConstant::Binary(b) => parse_bits(b.0.get(2..).unwrap_or(""), 2, 1),
                SpecConstant::Decimal(d) => Err(format!("real literal {d} is not supported")),
                SpecConstant::String(s) => Err(format!("string literal {s} is not supported")),
            },
            ll::Term::Identifier(QualIdentifier::Identifier(Identifier::Simple(sym))) => {
                self.lookup(&symbol_name(sym.0))
            }
            ll::Term::Identifier(QualIdentifier::Identifier(Identifier::Indexed(sym, idx))) => {
                // (_ bvN w)
                let Some(digits) = sym.0.strip_prefix("bv") else {
                    return Err(format!("unknown indexed constant {}", sym.0));
                };
                if idx.len() != 1 {
                    return Err(format!("(_ {} ...) expects one index", sym.0));
                }
                let w = numeral_u32(&idx[0])?;
                if w == 0 || w > crate::term::MAX_BV_LITERAL_WIDTH {
                    return Err(format!("bit-vector literal of width {w} is not supported"));
                }
                let v: BigUint = digits
                    .parse()
                    .map_err(|_| format!("bad bit-vector literal {}", sym.0))?;
                let modulus = BigUint::from(1u8) << w;
                let v = (v % modulus)
                    .to_u128()
                    .ok_or("bit-vector literal too large")?;
                Ok(Term::bv(v, w))
            }
            ll::Term::Identifier(QualIdentifier::Sorted(id, _)) => Err(format!(
                "qualified identifier (as {id} ...) is not supported"
            )),
            ll::Term::Application(qid, args) => {
                let id = match qid {
                    QualIdentifier::Identifier(id) => id,
                    QualIdentifier::Sorted(id, _) => {
                        return Err(format!(
                            "qualified identifier (as {id} ...) is not supported"
                        ))
                    }
                };
                let args: Vec<Term> = args
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<_, _>>()?;
                let op = match internal_division(id, &args)? {
                    Some(op) => op,
                    None => op_of(id, args.len())?,
                };
                Term::app(op, args).map_err(|e| e.message)
            }
            ll::Term::Let(bindings, body) => {
                // Parallel let: all right-hand sides are read in the outer scope.
                let values: Vec<(String, Term)> = bindings
                    .iter()
                    .map(|b| Ok((symbol_name(b.0 .0), self.term(b.1)?)))
                    .collect::<Result<_, String>>()?;
                let depth = self.bound.len();
                self.bound.extend(values);
                let r = self.term(body);
                self.bound.truncate(depth);
                r
            }
            ll::Term::Forall(vars, body) | ll::Term::Exists(vars, body) => {
                let q = if matches!(t, ll::Term::Forall(..)) {
                    Quantifier::Forall
                } else {
                    Quantifier::Exists
                };
                let vars: Vec<Var> = vars
                    .iter()
                    .map(|sv| Ok(Var::new(symbol_name(sv.0 .0), convert_sort(&sv.1)?)))
                    .collect::<Result<_, String>>()?;
                let depth = self.bound.len();
                self.bound
                    .extend(vars.iter().map(|v| (v.name.to_string(), v.term())));
                let r = self.term(body);
                self.bound.truncate(depth);
                Term::quant(q, vars, r?).map_err(|e| e.message)
            }
            ll::Term::Annotation(inner, attrs) => {
                let t = self.term(inner)?;
                for a in attrs.iter() {
                    if let Attribute::WithValue(k, AttributeValue::Symbol(s)) = a {
                        if k.0 == ":named" {
                            self.names.push(symbol_name(s.0));
                        }
                    }
                }
                Ok(t)
            }
            ll::Term::Match(..) => Err("match is not supported".into()),
        }
    }
}

/// Z3's internal divisions `bvudiv_i` .. `bvsmod_i`, which its simplifier writes (into
/// quantifier elimination's results, say) where it knows the divisor is not zero: read as the
/// SMT-LIB operator when the divisor is a non-zero literal (the two agree there); refused
/// otherwise, since they differ at zero (`cpa fuzz`, seed 1, program 2109: `(bvudiv_i g2
/// #xfffffffffffffffd)` made four presets answer UNKNOWN).
fn internal_division(id: &Identifier<'_>, args: &[Term]) -> Result<Option<Op>, String> {
    let Identifier::Simple(sym) = id else {
        return Ok(None);
    };
    let op = match sym.0 {
        "bvudiv_i" => Op::BvUdiv,
        "bvurem_i" => Op::BvUrem,
        "bvsdiv_i" => Op::BvSdiv,
        "bvsrem_i" => Op::BvSrem,
        "bvsmod_i" => Op::BvSmod,
        _ => return Ok(None),
    };
    match args {
        [_, d] if d.as_bv().is_some_and(|(v, _)| v != 0) => Ok(Some(op)),
        _ => Err(format!(
            "Z3's internal {} without a non-zero literal divisor",
            sym.0
        )),
    }
}

/// The operator named by an identifier applied to `n` arguments.
fn op_of(id: &Identifier<'_>, n: usize) -> Result<Op, String> {
    use Op::*;
    match id {
        Identifier::Simple(sym) => Ok(match sym.0 {
            "not" => Not,
            "and" => And,
            "or" => Or,
            "=>" => Implies,
            "xor" => Xor,
            "=" => Eq,
            "distinct" => Distinct,
            "ite" => Ite,
            "-" if n == 1 => Neg,
            "-" => Sub,
            "+" => Add,
            "*" => Mul,
            "div" => Div,
            "mod" => Mod,
            "abs" => Abs,
            "<=" => Le,
            "<" => Lt,
            ">=" => Ge,
            ">" => Gt,
            "bvnot" => BvNot,
            "bvneg" => BvNeg,
            "bvand" => BvAnd,
            "bvor" => BvOr,
            "bvxor" => BvXor,
            "bvadd" => BvAdd,
            "bvsub" => BvSub,
            "bvmul" => BvMul,
            "bvudiv" => BvUdiv,
            "bvurem" => BvUrem,
            "bvsdiv" => BvSdiv,
            "bvsrem" => BvSrem,
            "bvsmod" => BvSmod,
            "bvshl" => BvShl,
            "bvlshr" => BvLshr,
            "bvashr" => BvAshr,
            "bvult" => BvUlt,
            "bvule" => BvUle,
            "bvugt" => BvUgt,
            "bvuge" => BvUge,
            "bvslt" => BvSlt,
            "bvsle" => BvSle,
            "bvsgt" => BvSgt,
            "bvsge" => BvSge,
            "concat" => Concat,
            "bv2nat" => Bv2Nat,
            other => return Err(format!("unknown function symbol {}", symbol_name(other))),
        }),
        Identifier::Indexed(sym, idx) => {
            let one = || -> Result<u32, String> {
                if idx.len() != 1 {
                    return Err(format!("(_ {} ...) expects one index", sym.0));
                }
                numeral_u32(&idx[0])
            };
            Ok(match sym.0 {
                "extract" => {
                    if idx.len() != 2 {
                        return Err("(_ extract i j) expects two indices".into());
                    }
                    Extract(numeral_u32(&idx[0])?, numeral_u32(&idx[1])?)
                }
                "zero_extend" => ZeroExtend(one()?),
                "sign_extend" => SignExtend(one()?),
                "int2bv" => Int2Bv(one()?),
                "divisible" => {
                    if idx.len() != 1 {
                        return Err("(_ divisible n) expects one index".into());
                    }
                    let Index::Numeral(n) = idx[0] else {
                        return Err("(_ divisible n) expects a numeral".into());
                    };
                    Divisible(
                        n.to_string()
                            .parse()
                            .map_err(|_| format!("bad numeral {n}"))?,
                    )
                }
                other => return Err(format!("unknown indexed function (_ {other} ...)")),
            })
        }
    }
}
