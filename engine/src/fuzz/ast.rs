//! The generated programs as a small tree: integer types, side-effect-free expressions,
//! statements, functions. The tree renders to C ([`Program::render`]) with every statement on a
//! line of its own; the minimizer edits the tree, never the text.
//!
//! Rendering makes every tree free of undefined behaviour, whatever the minimizer did to it:
//! divisions and remainders carry their guard (`b == 0 || b == -1` gives the dividend), and
//! shift amounts are reduced modulo the width of the promoted left operand, computed from the
//! operand's type at rendering time.

use crate::ir::IntType;
use std::fmt::Write;

/// The integer types of the ILP32 subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ty {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LLong,
    ULLong,
}

pub const ALL_TYPES: [Ty; 11] = [
    Ty::Bool,
    Ty::Char,
    Ty::UChar,
    Ty::Short,
    Ty::UShort,
    Ty::Int,
    Ty::UInt,
    Ty::Long,
    Ty::ULong,
    Ty::LLong,
    Ty::ULLong,
];

impl Ty {
    pub fn int_type(self) -> IntType {
        match self {
            Ty::Bool => IntType::BOOL,
            Ty::Char => IntType::CHAR,
            Ty::UChar => IntType::UCHAR,
            Ty::Short => IntType::SHORT,
            Ty::UShort => IntType::USHORT,
            Ty::Int => IntType::INT,
            Ty::UInt => IntType::UINT,
            Ty::Long => IntType::LONG,
            Ty::ULong => IntType::ULONG,
            Ty::LLong => IntType::LLONG,
            Ty::ULLong => IntType::ULLONG,
        }
    }

    pub fn c_name(self) -> &'static str {
        match self {
            Ty::Bool => "_Bool",
            Ty::Char => "char",
            Ty::UChar => "unsigned char",
            Ty::Short => "short",
            Ty::UShort => "unsigned short",
            Ty::Int => "int",
            Ty::UInt => "unsigned int",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
            Ty::LLong => "long long",
            Ty::ULLong => "unsigned long long",
        }
    }

    /// The suffix of `__VERIFIER_nondet_<suffix>` (SV-COMP's names).
    pub fn nondet_suffix(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::Char => "char",
            Ty::UChar => "uchar",
            Ty::Short => "short",
            Ty::UShort => "ushort",
            Ty::Int => "int",
            Ty::UInt => "uint",
            Ty::Long => "long",
            Ty::ULong => "ulong",
            Ty::LLong => "longlong",
            Ty::ULLong => "ulonglong",
        }
    }

    pub fn bits(self) -> u32 {
        self.int_type().bits()
    }

    pub fn signed(self) -> bool {
        self.int_type().signed
    }

    pub fn min(self) -> i128 {
        self.int_type().min_value()
    }

    pub fn max(self) -> i128 {
        self.int_type().max_value()
    }

    pub fn wrap(self, v: i128) -> i128 {
        self.int_type().wrap(v)
    }

    /// Integer promotion: everything narrower than `int` becomes `int`.
    pub fn promote(self) -> Ty {
        match self {
            Ty::Bool | Ty::Char | Ty::UChar | Ty::Short | Ty::UShort => Ty::Int,
            t => t,
        }
    }

    fn rank(self) -> u8 {
        match self.promote() {
            Ty::Int | Ty::UInt => 0,
            Ty::Long | Ty::ULong => 1,
            _ => 2,
        }
    }

    fn to_unsigned(self) -> Ty {
        match self {
            Ty::Int => Ty::UInt,
            Ty::Long => Ty::ULong,
            Ty::LLong => Ty::ULLong,
            t => t,
        }
    }

    /// The usual arithmetic conversions of C in the ILP32 model.
    pub fn usual(a: Ty, b: Ty) -> Ty {
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            return a;
        }
        if a.signed() == b.signed() {
            return if a.rank() >= b.rank() { a } else { b };
        }
        let (s, u) = if a.signed() { (a, b) } else { (b, a) };
        if u.rank() >= s.rank() {
            u
        } else if s.bits() > u.bits() {
            s
        } else {
            s.to_unsigned()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UOp {
    Neg,
    BitNot,
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BOp {
    Add,
    Sub,
    Mul,
    /// Guarded: renders as `(b == 0 || b == -1) ? a : a / b`.
    Div,
    /// Guarded like `Div`.
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    /// The amount is reduced modulo the promoted left operand's width when rendered.
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

impl BOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BOp::Add => "+",
            BOp::Sub => "-",
            BOp::Mul => "*",
            BOp::Div => "/",
            BOp::Rem => "%",
            BOp::BitAnd => "&",
            BOp::BitOr => "|",
            BOp::BitXor => "^",
            BOp::Shl => "<<",
            BOp::Shr => ">>",
            BOp::Lt => "<",
            BOp::Le => "<=",
            BOp::Gt => ">",
            BOp::Ge => ">=",
            BOp::Eq => "==",
            BOp::Ne => "!=",
            BOp::LogAnd => "&&",
            BOp::LogOr => "||",
        }
    }

    pub fn is_boolean(self) -> bool {
        matches!(
            self,
            BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge | BOp::Eq | BOp::Ne | BOp::LogAnd | BOp::LogOr
        )
    }

    /// Operators a compound assignment (`x op= e`) may use without a guard.
    pub fn compound_ok(self) -> bool {
        matches!(
            self,
            BOp::Add | BOp::Sub | BOp::Mul | BOp::BitAnd | BOp::BitOr | BOp::BitXor
        )
    }
}

/// A side-effect-free expression. Variables carry their declared type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Var(String, Ty),
    /// A value of the type (rendered with a suffix or a cast so that its C type is `Ty`).
    Const(i128, Ty),
    Unary(UOp, Box<Expr>),
    Bin(BOp, Box<Expr>, Box<Expr>),
    Cast(Ty, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn int(v: i128) -> Expr {
        Expr::Const(v, Ty::Int)
    }

    pub fn var(name: &str, ty: Ty) -> Expr {
        Expr::Var(name.to_string(), ty)
    }

    pub fn bin(op: BOp, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    pub fn log_not(a: Expr) -> Expr {
        Expr::Unary(UOp::LogNot, Box::new(a))
    }

    /// The C type of the expression.
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Var(_, t) | Expr::Const(_, t) | Expr::Cast(t, _) => *t,
            Expr::Unary(UOp::LogNot, _) => Ty::Int,
            Expr::Unary(_, a) => a.ty().promote(),
            Expr::Bin(op, a, b) => match op {
                op if op.is_boolean() => Ty::Int,
                BOp::Shl | BOp::Shr => a.ty().promote(),
                _ => Ty::usual(a.ty(), b.ty()),
            },
            Expr::Ite(_, a, b) => Ty::usual(a.ty(), b.ty()),
        }
    }

    pub fn size(&self) -> usize {
        match self {
            Expr::Var(..) | Expr::Const(..) => 1,
            Expr::Unary(_, a) | Expr::Cast(_, a) => 1 + a.size(),
            Expr::Bin(_, a, b) => 1 + a.size() + b.size(),
            Expr::Ite(c, a, b) => 1 + c.size() + a.size() + b.size(),
        }
    }

    pub fn uses(&self, name: &str) -> bool {
        match self {
            Expr::Var(n, _) => n == name,
            Expr::Const(..) => false,
            Expr::Unary(_, a) | Expr::Cast(_, a) => a.uses(name),
            Expr::Bin(_, a, b) => a.uses(name) || b.uses(name),
            Expr::Ite(c, a, b) => c.uses(name) || a.uses(name) || b.uses(name),
        }
    }

    pub fn render(&self, out: &mut String) {
        match self {
            Expr::Var(n, _) => out.push_str(n),
            Expr::Const(v, t) => render_const(*v, *t, out),
            Expr::Unary(op, a) => {
                out.push_str(match op {
                    UOp::Neg => "(-",
                    UOp::BitNot => "(~",
                    UOp::LogNot => "(!",
                });
                a.render(out);
                out.push(')');
            }
            Expr::Bin(op @ (BOp::Div | BOp::Rem), a, b) if matches!(**b, Expr::Const(v, t) if t.wrap(v) != 0 && t.wrap(v) != t.wrap(-1)) =>
            {
                // A constant divisor other than 0 and -1 needs no guard.
                out.push('(');
                a.render(out);
                out.push_str(if *op == BOp::Div { " / " } else { " % " });
                b.render(out);
                out.push(')');
            }
            Expr::Bin(op @ (BOp::Div | BOp::Rem), a, b) => {
                // C leaves x / 0 and INT_MIN / -1 undefined: both give the dividend here.
                out.push_str("((");
                b.render(out);
                out.push_str(" == 0 || ");
                b.render(out);
                out.push_str(" == -1) ? ");
                a.render(out);
                out.push_str(" : (");
                a.render(out);
                out.push_str(if *op == BOp::Div { " / " } else { " % " });
                b.render(out);
                out.push_str("))");
            }
            Expr::Bin(op @ (BOp::Shl | BOp::Shr), a, b) => {
                let width = a.ty().promote().bits();
                out.push('(');
                a.render(out);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                render_amount(b, width, out);
                out.push(')');
            }
            Expr::Bin(op, a, b) => {
                out.push('(');
                a.render(out);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                b.render(out);
                out.push(')');
            }
            Expr::Cast(t, a) => {
                let _ = write!(out, "(({})", t.c_name());
                a.render(out);
                out.push(')');
            }
            Expr::Ite(c, a, b) => {
                out.push('(');
                c.render(out);
                out.push_str(" ? ");
                a.render(out);
                out.push_str(" : ");
                b.render(out);
                out.push(')');
            }
        }
    }

    pub fn text(&self) -> String {
        let mut s = String::new();
        self.render(&mut s);
        s
    }
}

/// A shift amount within `0..width`: a constant reduced modulo `width`, or `(b & (width-1))`.
fn render_amount(b: &Expr, width: u32, out: &mut String) {
    match b {
        Expr::Const(v, _) => {
            let _ = write!(out, "{}", v.rem_euclid(i128::from(width)));
        }
        _ => {
            out.push('(');
            b.render(out);
            let _ = write!(out, " & {})", width - 1);
        }
    }
}

/// A literal whose C type is `t` and whose value is `v` (wrapped into `t`).
pub fn render_const(v: i128, t: Ty, out: &mut String) {
    let v = t.wrap(v);
    match t {
        Ty::Int | Ty::Long if v == t.min() => {
            let _ = write!(
                out,
                "({}{} - 1)",
                v + 1,
                if t == Ty::Long { "L" } else { "" }
            );
        }
        Ty::LLong if v == t.min() => {
            let _ = write!(out, "({}LL - 1)", v + 1);
        }
        Ty::Int if v < 0 => {
            let _ = write!(out, "({v})");
        }
        Ty::Int => {
            let _ = write!(out, "{v}");
        }
        Ty::Long if v < 0 => {
            let _ = write!(out, "({v}L)");
        }
        Ty::Long => {
            let _ = write!(out, "{v}L");
        }
        Ty::LLong if v < 0 => {
            let _ = write!(out, "({v}LL)");
        }
        Ty::LLong => {
            let _ = write!(out, "{v}LL");
        }
        Ty::UInt => {
            let _ = write!(out, "{v}U");
        }
        Ty::ULong => {
            let _ = write!(out, "{v}UL");
        }
        Ty::ULLong => {
            let _ = write!(out, "{v}ULL");
        }
        _ => {
            let _ = write!(out, "(({}){v})", t.c_name());
        }
    }
}

/// Which check a property statement renders as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// `__VERIFIER_assert(c);`
    Assert,
    /// `if (!(c)) reach_error();`
    ReachUnless,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssumeFn {
    Verifier,
    AbortIfNot,
}

/// A statement. Loops with a counter (`For`, `While`, `DoWhile`, `GotoLoop`) run at most
/// `bound` times: the counter is read-only in the body. `NondetLoop` runs as long as its
/// nondeterministic exit variable is nonzero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// `T x = e;` or, with `None`, `T x = __VERIFIER_nondet_T();`.
    Decl {
        name: String,
        ty: Ty,
        init: Option<Expr>,
    },
    /// `x = e;`, or `x op= e;` with `op`.
    Assign {
        name: String,
        ty: Ty,
        op: Option<BOp>,
        e: Expr,
    },
    /// `x++;` / `x--;`
    Incr {
        name: String,
        up: bool,
    },
    /// `x = __VERIFIER_nondet_T();`
    Havoc {
        name: String,
        ty: Ty,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// `for (int i = 0; i < bound; i++) { body }` (or counting down).
    For {
        var: String,
        bound: u32,
        down: bool,
        body: Vec<Stmt>,
    },
    /// `int i = 0; while (i < bound) { body i++; }`
    While {
        var: String,
        bound: u32,
        body: Vec<Stmt>,
    },
    /// `int i = 0; do { body i++; } while (i < bound);`
    DoWhile {
        var: String,
        bound: u32,
        body: Vec<Stmt>,
    },
    /// `int i = 0; L: body i++; if (i < bound) goto L;`
    GotoLoop {
        var: String,
        label: String,
        bound: u32,
        body: Vec<Stmt>,
    },
    /// `int c = nondet(); while (c) { body c = nondet(); }`
    NondetLoop {
        var: String,
        body: Vec<Stmt>,
    },
    /// `if (cond) goto L; body L:;` (the skipped statements declare nothing at their level).
    SkipTo {
        cond: Expr,
        label: String,
        body: Vec<Stmt>,
    },
    /// `x = f(args);` (`target` None: `f(args);`)
    Call {
        target: Option<(String, Ty)>,
        func: String,
        args: Vec<Expr>,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    Assume(AssumeFn, Expr),
    Check(Check, Expr),
    /// `reach_error();`
    ReachError,
    /// `abort();`
    Abort,
    /// `{ body }`
    Block(Vec<Stmt>),
    /// Arrays, pointers, structs (`--memory`): C lines as written inside `{ }`, reading the
    /// outer `reads`, assigning `writes`, `nondet` if they read inputs; kept or removed whole.
    Memory {
        lines: Vec<String>,
        reads: Vec<String>,
        writes: Vec<String>,
        nondet: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Global {
    pub name: String,
    pub ty: Ty,
    pub init: i128,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Func {
    pub name: String,
    pub ret: Option<Ty>,
    pub params: Vec<(String, Ty)>,
    pub body: Vec<Stmt>,
}

/// A whole program: globals, helper functions (each may call only those before it, and
/// itself), and `main`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    pub globals: Vec<Global>,
    pub funcs: Vec<Func>,
    pub main: Vec<Stmt>,
    /// Every loop has a constant bound and every recursion is bounded by its arguments'
    /// constant values: BMC with the forward condition can decide the program.
    pub bounded: bool,
}

impl Stmt {
    /// The sub-blocks of the statement.
    pub fn blocks(&self) -> Vec<&Vec<Stmt>> {
        match self {
            Stmt::If { then, els, .. } => vec![then, els],
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::DoWhile { body, .. }
            | Stmt::GotoLoop { body, .. }
            | Stmt::NondetLoop { body, .. }
            | Stmt::SkipTo { body, .. }
            | Stmt::Block(body) => vec![body],
            _ => vec![],
        }
    }

    pub fn blocks_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match self {
            Stmt::If { then, els, .. } => vec![then, els],
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::DoWhile { body, .. }
            | Stmt::GotoLoop { body, .. }
            | Stmt::NondetLoop { body, .. }
            | Stmt::SkipTo { body, .. }
            | Stmt::Block(body) => vec![body],
            _ => vec![],
        }
    }

    /// The expressions directly in the statement (not in sub-blocks).
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Stmt::Decl { init: Some(e), .. }
            | Stmt::Assign { e, .. }
            | Stmt::If { cond: e, .. }
            | Stmt::SkipTo { cond: e, .. }
            | Stmt::Return(Some(e))
            | Stmt::Assume(_, e)
            | Stmt::Check(_, e) => vec![e],
            Stmt::Call { args, .. } => args.iter_mut().collect(),
            _ => vec![],
        }
    }

    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Stmt::Decl { init: Some(e), .. }
            | Stmt::Assign { e, .. }
            | Stmt::If { cond: e, .. }
            | Stmt::SkipTo { cond: e, .. }
            | Stmt::Return(Some(e))
            | Stmt::Assume(_, e)
            | Stmt::Check(_, e) => vec![e],
            Stmt::Call { args, .. } => args.iter().collect(),
            _ => vec![],
        }
    }

    /// The name the statement declares at its own level (loops declare their counter in an
    /// enclosing scope of their own, so nothing here).
    pub fn declares(&self) -> Option<&str> {
        match self {
            Stmt::Decl { name, .. } => Some(name),
            _ => None,
        }
    }

    /// Does the statement (or anything inside it) mention `name` as a variable, a function or
    /// a label?
    pub fn uses(&self, name: &str) -> bool {
        let direct = match self {
            Stmt::Assign { name: n, .. }
            | Stmt::Incr { name: n, .. }
            | Stmt::Havoc { name: n, .. } => n == name,
            Stmt::Call { target, func, .. } => {
                func == name || target.as_ref().is_some_and(|(t, _)| t == name)
            }
            Stmt::Memory { reads, writes, .. } => reads.iter().chain(writes).any(|n| n == name),
            _ => false,
        };
        direct
            || self.exprs().iter().any(|e| e.uses(name))
            || self.blocks().iter().any(|b| b.iter().any(|s| s.uses(name)))
    }

    /// Does a `break` or `continue` in this statement leave it (one not inside a nested loop)?
    pub fn escapes(&self) -> bool {
        match self {
            Stmt::Break | Stmt::Continue => true,
            Stmt::If { then, els, .. } => {
                then.iter().any(Stmt::escapes) || els.iter().any(Stmt::escapes)
            }
            Stmt::SkipTo { body, .. } | Stmt::Block(body) => body.iter().any(Stmt::escapes),
            _ => false,
        }
    }

    pub fn count(&self) -> usize {
        1 + self
            .blocks()
            .iter()
            .map(|b| b.iter().map(Stmt::count).sum::<usize>())
            .sum::<usize>()
    }
}

struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn block(&mut self, body: &[Stmt]) {
        self.indent += 1;
        for s in body {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Decl { name, ty, init } => {
                let rhs = match init {
                    Some(e) => e.text(),
                    None => format!("__VERIFIER_nondet_{}()", ty.nondet_suffix()),
                };
                self.line(&format!("{} {name} = {rhs};", ty.c_name()));
            }
            Stmt::Assign { name, ty, op, e } => match op {
                Some(op @ (BOp::Shl | BOp::Shr)) => {
                    let mut amount = String::new();
                    render_amount(e, ty.promote().bits(), &mut amount);
                    self.line(&format!("{name} {}= {amount};", op.symbol()));
                }
                Some(op) => self.line(&format!("{name} {}= {};", op.symbol(), e.text())),
                None => self.line(&format!("{name} = {};", e.text())),
            },
            Stmt::Incr { name, up } => {
                self.line(&format!("{name}{};", if *up { "++" } else { "--" }));
            }
            Stmt::Havoc { name, ty } => {
                self.line(&format!(
                    "{name} = __VERIFIER_nondet_{}();",
                    ty.nondet_suffix()
                ));
            }
            Stmt::Memory { lines, .. } => {
                self.line("{");
                self.indent += 1;
                for l in lines {
                    self.line(l);
                }
                self.indent -= 1;
                self.line("}");
            }
            Stmt::If { cond, then, els } => {
                self.line(&format!("if ({}) {{", cond.text()));
                self.block(then);
                if els.is_empty() {
                    self.line("}");
                } else {
                    self.line("} else {");
                    self.block(els);
                    self.line("}");
                }
            }
            Stmt::For {
                var,
                bound,
                down,
                body,
            } => {
                if *down {
                    self.line(&format!("for (int {var} = {bound}; {var} > 0; {var}--) {{"));
                } else {
                    self.line(&format!("for (int {var} = 0; {var} < {bound}; {var}++) {{"));
                }
                self.block(body);
                self.line("}");
            }
            Stmt::While { var, bound, body } => {
                self.line("{");
                self.indent += 1;
                self.line(&format!("int {var} = 0;"));
                self.line(&format!("while ({var} < {bound}) {{"));
                self.block(body);
                self.indent += 1;
                self.line(&format!("{var} = {var} + 1;"));
                self.indent -= 1;
                self.line("}");
                self.indent -= 1;
                self.line("}");
            }
            Stmt::DoWhile { var, bound, body } => {
                self.line("{");
                self.indent += 1;
                self.line(&format!("int {var} = 0;"));
                self.line("do {");
                self.block(body);
                self.indent += 1;
                self.line(&format!("{var}++;"));
                self.indent -= 1;
                self.line(&format!("}} while ({var} < {bound});"));
                self.indent -= 1;
                self.line("}");
            }
            Stmt::GotoLoop {
                var,
                label,
                bound,
                body,
            } => {
                self.line("{");
                self.indent += 1;
                self.line(&format!("int {var} = 0;"));
                self.line(&format!("{label}:;"));
                self.block(body);
                self.line(&format!("{var}++;"));
                self.line(&format!("if ({var} < {bound}) goto {label};"));
                self.indent -= 1;
                self.line("}");
            }
            Stmt::NondetLoop { var, body } => {
                self.line("{");
                self.indent += 1;
                self.line(&format!("int {var} = __VERIFIER_nondet_int();"));
                self.line(&format!("while ({var}) {{"));
                self.block(body);
                self.indent += 1;
                self.line(&format!("{var} = __VERIFIER_nondet_int();"));
                self.indent -= 1;
                self.line("}");
                self.indent -= 1;
                self.line("}");
            }
            Stmt::SkipTo { cond, label, body } => {
                self.line(&format!("if ({}) goto {label};", cond.text()));
                for s in body {
                    self.stmt(s);
                }
                self.line(&format!("{label}:;"));
            }
            Stmt::Call { target, func, args } => {
                let args: Vec<String> = args.iter().map(Expr::text).collect();
                match target {
                    Some((t, _)) => self.line(&format!("{t} = {func}({});", args.join(", "))),
                    None => self.line(&format!("{func}({});", args.join(", "))),
                }
            }
            Stmt::Return(None) => self.line("return;"),
            Stmt::Return(Some(e)) => self.line(&format!("return {};", e.text())),
            Stmt::Break => self.line("break;"),
            Stmt::Continue => self.line("continue;"),
            Stmt::Assume(f, e) => {
                let name = match f {
                    AssumeFn::Verifier => "__VERIFIER_assume",
                    AssumeFn::AbortIfNot => "assume_abort_if_not",
                };
                self.line(&format!("{name}({});", e.text()));
            }
            Stmt::Check(Check::Assert, e) => {
                self.line(&format!("__VERIFIER_assert({});", e.text()))
            }
            Stmt::Check(Check::ReachUnless, e) => {
                self.line(&format!("if (!{}) reach_error();", paren(&e.text())))
            }
            Stmt::ReachError => self.line("reach_error();"),
            Stmt::Abort => self.line("abort();"),
            Stmt::Block(body) => {
                self.line("{");
                self.block(body);
                self.line("}");
            }
        }
    }
}

fn paren(s: &str) -> String {
    if s.starts_with('(') && s.ends_with(')') {
        s.to_string()
    } else {
        format!("({s})")
    }
}

impl Program {
    /// The C text.
    pub fn render(&self) -> String {
        let mut p = Printer {
            out: String::new(),
            indent: 0,
        };
        let calls = |f: &dyn Fn(&Stmt) -> bool| self.any_stmt(f);
        if calls(&|s| matches!(s, Stmt::ReachError | Stmt::Check(Check::ReachUnless, _))) {
            p.line("extern void reach_error(void);");
        }
        if calls(&|s| matches!(s, Stmt::Abort)) {
            p.line("extern void abort(void);");
        }
        if calls(&|s| matches!(s, Stmt::Check(Check::Assert, _))) {
            p.line("extern void __VERIFIER_assert(int cond);");
        }
        if calls(&|s| matches!(s, Stmt::Assume(AssumeFn::Verifier, _))) {
            p.line("extern void __VERIFIER_assume(int cond);");
        }
        if calls(&|s| matches!(s, Stmt::Assume(AssumeFn::AbortIfNot, _))) {
            p.line("extern void assume_abort_if_not(int cond);");
        }
        let mut used: Vec<Ty> = ALL_TYPES.to_vec();
        used.retain(|t| self.uses_nondet(*t));
        for t in used {
            p.line(&format!(
                "extern {} __VERIFIER_nondet_{}(void);",
                t.c_name(),
                t.nondet_suffix()
            ));
        }
        for g in &self.globals {
            let mut init = String::new();
            render_const(g.init, g.ty, &mut init);
            p.line(&format!("{} {} = {init};", g.ty.c_name(), g.name));
        }
        for f in &self.funcs {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|(n, t)| format!("{} {n}", t.c_name()))
                .collect();
            let params = if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            };
            let ret = f.ret.map_or("void", Ty::c_name);
            p.line(&format!("{ret} {}({params}) {{", f.name));
            p.block(&f.body);
            p.line("}");
        }
        p.line("int main(void) {");
        p.block(&self.main);
        p.indent += 1;
        p.line("return 0;");
        p.indent -= 1;
        p.line("}");
        p.out
    }

    fn uses_nondet(&self, t: Ty) -> bool {
        self.any_stmt(&|s| match s {
            Stmt::Decl { ty, init: None, .. } | Stmt::Havoc { ty, .. } => *ty == t,
            Stmt::NondetLoop { .. } | Stmt::Memory { nondet: true, .. } => t == Ty::Int,
            _ => false,
        })
    }

    /// Does any statement (at any depth) satisfy `f`?
    pub fn any_stmt(&self, f: &dyn Fn(&Stmt) -> bool) -> bool {
        fn walk(b: &[Stmt], f: &dyn Fn(&Stmt) -> bool) -> bool {
            b.iter()
                .any(|s| f(s) || s.blocks().iter().any(|b| walk(b, f)))
        }
        walk(&self.main, f) || self.funcs.iter().any(|fun| walk(&fun.body, f))
    }

    /// Statements in the whole program.
    pub fn size(&self) -> usize {
        self.main.iter().map(Stmt::count).sum::<usize>()
            + self
                .funcs
                .iter()
                .map(|f| 1 + f.body.iter().map(Stmt::count).sum::<usize>())
                .sum::<usize>()
            + self.globals.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions_of_ilp32() {
        assert_eq!(Ty::usual(Ty::Char, Ty::UShort), Ty::Int);
        assert_eq!(Ty::usual(Ty::Int, Ty::UInt), Ty::UInt);
        assert_eq!(Ty::usual(Ty::Long, Ty::UInt), Ty::ULong);
        assert_eq!(Ty::usual(Ty::LLong, Ty::UInt), Ty::LLong);
        assert_eq!(Ty::usual(Ty::LLong, Ty::ULong), Ty::LLong);
        assert_eq!(Ty::usual(Ty::ULLong, Ty::Int), Ty::ULLong);
        assert_eq!(Ty::usual(Ty::Long, Ty::Int), Ty::Long);
    }

    #[test]
    fn constants_have_their_type() {
        let r = |v, t| {
            let mut s = String::new();
            render_const(v, t, &mut s);
            s
        };
        assert_eq!(r(-2147483648, Ty::Int), "(-2147483647 - 1)");
        assert_eq!(r(-1, Ty::UInt), "4294967295U");
        assert_eq!(r(300, Ty::UChar), "((unsigned char)44)");
        assert_eq!(
            r(i128::from(i64::MIN), Ty::LLong),
            "(-9223372036854775807LL - 1)"
        );
    }

    #[test]
    fn guards_survive_any_operands() {
        let e = Expr::bin(BOp::Shl, Expr::var("x", Ty::Char), Expr::int(40));
        assert_eq!(e.text(), "(x << 8)");
        let e = Expr::bin(BOp::Shr, Expr::var("x", Ty::LLong), Expr::var("y", Ty::Int));
        assert_eq!(e.text(), "(x >> (y & 63))");
        let e = Expr::bin(BOp::Div, Expr::var("x", Ty::Int), Expr::var("y", Ty::Int));
        assert_eq!(e.text(), "((y == 0 || y == -1) ? x : (x / y))");
    }
}
