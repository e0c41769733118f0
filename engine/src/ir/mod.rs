//! Typed, side-effect-free integer expressions of the ILP32 C subset.
//!
//! The front end inserts every conversion C performs implicitly (integer promotions, usual
//! arithmetic conversions, conversion on assignment) as an explicit [`ExprKind::Cast`], so every
//! consumer (formula encoding, concrete execution, pretty printing) sees the exact semantics
//! without re-deriving C's typing rules.

pub mod range;
pub mod semantics;

use serde::Serialize;
use std::fmt;

/// The integer kinds of C, ordered by conversion rank (C11 6.3.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum IntKind {
    Bool,
    Char,
    Short,
    Int,
    Long,
    LongLong,
}

/// An integer type of the ILP32 data model: `char` 8, `short` 16, `int` and `long` 32,
/// `long long` 64 bits; plain `char` is signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct IntType {
    pub kind: IntKind,
    pub signed: bool,
}

impl IntType {
    pub const BOOL: IntType = IntType {
        kind: IntKind::Bool,
        signed: false,
    };
    pub const CHAR: IntType = IntType {
        kind: IntKind::Char,
        signed: true,
    };
    pub const UCHAR: IntType = IntType {
        kind: IntKind::Char,
        signed: false,
    };
    pub const SHORT: IntType = IntType {
        kind: IntKind::Short,
        signed: true,
    };
    pub const USHORT: IntType = IntType {
        kind: IntKind::Short,
        signed: false,
    };
    pub const INT: IntType = IntType {
        kind: IntKind::Int,
        signed: true,
    };
    pub const UINT: IntType = IntType {
        kind: IntKind::Int,
        signed: false,
    };
    pub const LONG: IntType = IntType {
        kind: IntKind::Long,
        signed: true,
    };
    pub const ULONG: IntType = IntType {
        kind: IntKind::Long,
        signed: false,
    };
    pub const LLONG: IntType = IntType {
        kind: IntKind::LongLong,
        signed: true,
    };
    pub const ULLONG: IntType = IntType {
        kind: IntKind::LongLong,
        signed: false,
    };

    /// Width in bits (ILP32). `_Bool` occupies one value bit.
    pub fn bits(self) -> u32 {
        match self.kind {
            IntKind::Bool => 1,
            IntKind::Char => 8,
            IntKind::Short => 16,
            IntKind::Int | IntKind::Long => 32,
            IntKind::LongLong => 64,
        }
    }

    pub fn min_value(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    pub fn max_value(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    pub fn contains(self, v: i128) -> bool {
        self.min_value() <= v && v <= self.max_value()
    }

    /// Whether every value of `[lo, hi]` is a value of the type.
    pub fn contains_range(self, (lo, hi): (i128, i128)) -> bool {
        self.contains(lo) && self.contains(hi)
    }

    /// The value `v` converted to this type (C11 6.3.1.2 and 6.3.1.3). Conversion of an
    /// out-of-range value to a signed type is implementation-defined; like gcc we wrap modulo 2^n.
    pub fn wrap(self, v: i128) -> i128 {
        if self.kind == IntKind::Bool {
            return i128::from(v != 0);
        }
        let bits = self.bits();
        let modulus = 1i128 << bits;
        let mut r = v.rem_euclid(modulus);
        if self.signed && r > self.max_value() {
            r -= modulus;
        }
        r
    }

    /// Integer promotion (C11 6.3.1.1p2): every type of rank below `int` becomes `int`
    /// (all their values fit in a 32-bit int).
    pub fn promote(self) -> IntType {
        if self.kind < IntKind::Int {
            IntType::INT
        } else {
            self
        }
    }

    pub fn to_unsigned(self) -> IntType {
        IntType {
            kind: self.kind,
            signed: false,
        }
    }

    /// The usual arithmetic conversions (C11 6.3.1.8) of two operand types.
    pub fn common(a: IntType, b: IntType) -> IntType {
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            return a;
        }
        if a.signed == b.signed {
            return if a.kind >= b.kind { a } else { b };
        }
        let (s, u) = if a.signed { (a, b) } else { (b, a) };
        if u.kind >= s.kind {
            u
        } else if s.bits() > u.bits() {
            s
        } else {
            s.to_unsigned()
        }
    }

    pub fn c_name(self) -> &'static str {
        match (self.kind, self.signed) {
            (IntKind::Bool, _) => "_Bool",
            (IntKind::Char, true) => "char",
            (IntKind::Char, false) => "unsigned char",
            (IntKind::Short, true) => "short",
            (IntKind::Short, false) => "unsigned short",
            (IntKind::Int, true) => "int",
            (IntKind::Int, false) => "unsigned int",
            (IntKind::Long, true) => "long",
            (IntKind::Long, false) => "unsigned long",
            (IntKind::LongLong, true) => "long long",
            (IntKind::LongLong, false) => "unsigned long long",
        }
    }
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// Index of a variable in [`crate::cfa::Cfa::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct VarId(pub u32);

/// Index of a function in [`crate::cfa::Cfa::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FuncId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variable {
    /// Unique name: `name` for globals, `function::name` for locals and parameters, with a
    /// `__N` suffix for the N-th shadowing declaration of the same name in one function.
    pub qualified: String,
    /// The name as written in the source.
    pub name: String,
    pub ty: IntType,
    /// `None` for globals (and function-`static` locals, which live as long as globals).
    pub function: Option<FuncId>,
    /// Front-end temporaries (`__tmp_N`, return values) are not user variables.
    pub synthetic: bool,
    /// The value is an address (a pointer, or a pointer cell of an object in memory).
    #[serde(skip_serializing_if = "is_false")]
    pub pointer: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnOp {
    /// Arithmetic negation `-e`.
    Neg,
    /// Bitwise complement `~e`.
    BitNot,
    /// Logical negation `!e` (result type `int`, operand compared with 0).
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// C division: truncates toward zero.
    Div,
    /// C remainder: sign of the dividend.
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// Side-effect-free `&&` (both operands are pure, so evaluation order does not matter).
    LogAnd,
    /// Side-effect-free `||`.
    LogOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::LogAnd | BinOp::LogOr)
    }

    fn precedence(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
            BinOp::Eq | BinOp::Ne => 6,
            BinOp::BitAnd => 5,
            BinOp::BitXor => 4,
            BinOp::BitOr => 3,
            BinOp::LogAnd => 2,
            BinOp::LogOr => 1,
        }
    }
}

/// A typed pure expression. `ty` is the C type of the value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Expr {
    pub ty: IntType,
    pub kind: ExprKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ExprKind {
    /// A constant, already within the range of `ty`.
    Const(i128),
    Var(VarId),
    Unary(UnOp, Box<Expr>),
    /// Arithmetic and bitwise operators have operands of the result type (the front end
    /// inserts the conversions); shifts have a left operand of the result type and a promoted
    /// right operand; comparisons have operands of one common type and result `int`; logical
    /// operators take any operand types and give `int`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to `ty`. `explicit` records whether the source wrote it.
    Cast {
        explicit: bool,
        operand: Box<Expr>,
    },
    /// Side-effect-free `c ? a : b`; `a` and `b` have type `ty`.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn constant(ty: IntType, v: i128) -> Expr {
        Expr {
            ty,
            kind: ExprKind::Const(ty.wrap(v)),
        }
    }

    pub fn var(id: VarId, ty: IntType) -> Expr {
        Expr {
            ty,
            kind: ExprKind::Var(id),
        }
    }

    /// Implicit conversion to `ty`; a no-op when the type already matches. Constants are folded.
    pub fn convert(self, ty: IntType) -> Expr {
        if self.ty == ty {
            return self;
        }
        if let ExprKind::Const(v) = self.kind {
            return Expr::constant(ty, v);
        }
        Expr {
            ty,
            kind: ExprKind::Cast {
                explicit: false,
                operand: Box::new(self),
            },
        }
    }

    pub fn as_const(&self) -> Option<i128> {
        match self.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        }
    }

    /// Calls `f` on the expression and every subexpression, parents first, operands left to
    /// right.
    pub fn for_each_node<'e>(&'e self, f: &mut impl FnMut(&'e Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Const(_) | ExprKind::Var(_) => {}
            ExprKind::Unary(_, e) => e.for_each_node(f),
            ExprKind::Binary(_, a, b) => {
                a.for_each_node(f);
                b.for_each_node(f);
            }
            ExprKind::Cast { operand, .. } => operand.for_each_node(f),
            ExprKind::Ite(c, a, b) => {
                c.for_each_node(f);
                a.for_each_node(f);
                b.for_each_node(f);
            }
        }
    }

    /// Calls `f` on every variable occurring in the expression.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        self.for_each_node(&mut |e| {
            if let ExprKind::Var(v) = e.kind {
                f(v)
            }
        });
    }

    /// Calls `f` on every constant occurring in the expression.
    pub fn for_each_const(&self, f: &mut impl FnMut(i128)) {
        self.for_each_node(&mut |e| {
            if let ExprKind::Const(c) = e.kind {
                f(c)
            }
        });
    }

    /// The logical negation of a condition, as C's `!`.
    pub fn logical_not(self) -> Expr {
        Expr {
            ty: IntType::INT,
            kind: ExprKind::Unary(UnOp::LogNot, Box::new(self)),
        }
    }

    /// Prints the expression as C, hiding implicit conversions.
    pub fn display<'a>(&'a self, names: &'a dyn VarNames) -> ExprDisplay<'a> {
        ExprDisplay { e: self, names }
    }
}

/// Gives variables their printed names.
pub trait VarNames {
    fn var_name(&self, v: VarId) -> &str;
}

pub struct ExprDisplay<'a> {
    e: &'a Expr,
    names: &'a dyn VarNames,
}

impl fmt::Display for ExprDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self.e, self.names, 0)
    }
}

/// Precedence levels used for parenthesisation: 0 = top, 11 = unary, 12 = primary.
fn write_expr(f: &mut fmt::Formatter<'_>, e: &Expr, name: &dyn VarNames, ctx: u8) -> fmt::Result {
    match &e.kind {
        ExprKind::Const(v) => {
            if *v < 0 && ctx >= 11 {
                write!(f, "({v})")
            } else {
                write!(f, "{v}")?;
                match (e.ty.kind, e.ty.signed) {
                    (k, false) if k >= IntKind::Int => f.write_str("U"),
                    _ => Ok(()),
                }
            }
        }
        ExprKind::Var(v) => f.write_str(name.var_name(*v)),
        ExprKind::Unary(op, a) => {
            let s = match op {
                UnOp::Neg => "-",
                UnOp::BitNot => "~",
                UnOp::LogNot => "!",
            };
            f.write_str(s)?;
            let inner_ctx = if *op == UnOp::LogNot && !is_primary(a) {
                0
            } else {
                11
            };
            if inner_ctx == 0 {
                f.write_str("(")?;
                write_expr(f, a, name, 0)?;
                f.write_str(")")
            } else {
                write_expr(f, a, name, 11)
            }
        }
        ExprKind::Binary(op, a, b) => {
            let p = op.precedence();
            let paren = p < ctx || ctx >= 11;
            if paren {
                f.write_str("(")?;
            }
            write_expr(f, a, name, p)?;
            write!(f, " {} ", op.symbol())?;
            write_expr(f, b, name, p + 1)?;
            if paren {
                f.write_str(")")?;
            }
            Ok(())
        }
        ExprKind::Cast { explicit, operand } => {
            if *explicit {
                write!(f, "({})", e.ty)?;
                write_expr(f, operand, name, 11)
            } else {
                write_expr(f, operand, name, ctx)
            }
        }
        ExprKind::Ite(c, a, b) => {
            let paren = ctx > 0;
            if paren {
                f.write_str("(")?;
            }
            write_expr(f, c, name, 1)?;
            f.write_str(" ? ")?;
            write_expr(f, a, name, 1)?;
            f.write_str(" : ")?;
            write_expr(f, b, name, 0)?;
            if paren {
                f.write_str(")")?;
            }
            Ok(())
        }
    }
}

fn is_primary(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(v) => *v >= 0,
        ExprKind::Var(_) => true,
        ExprKind::Cast {
            explicit: false,
            operand,
        } => is_primary(operand),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions_ilp32() {
        use IntType as T;
        assert_eq!(T::common(T::CHAR, T::UCHAR), T::INT);
        assert_eq!(T::common(T::INT, T::UINT), T::UINT);
        // long cannot represent every unsigned int in ILP32.
        assert_eq!(T::common(T::LONG, T::UINT), T::ULONG);
        assert_eq!(T::common(T::LLONG, T::ULONG), T::LLONG);
        assert_eq!(T::common(T::ULLONG, T::LLONG), T::ULLONG);
        assert_eq!(T::common(T::BOOL, T::SHORT), T::INT);
    }

    #[test]
    fn wrap_follows_modular_conversion() {
        assert_eq!(IntType::UCHAR.wrap(256 + 7), 7);
        assert_eq!(IntType::CHAR.wrap(200), -56);
        assert_eq!(IntType::UINT.wrap(-1), 4294967295);
        assert_eq!(IntType::INT.wrap(2147483648), -2147483648);
        assert_eq!(IntType::BOOL.wrap(-5), 1);
        assert_eq!(IntType::BOOL.wrap(0), 0);
    }
}
