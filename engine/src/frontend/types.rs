//! C types as the front end sees them, and the resolution of declaration specifiers,
//! declarators and literals. Struct and union definitions, typedef names and array sizes are
//! resolved through a [`TypeEnv`] (the lowering, which holds the records and evaluates
//! constant expressions).

use crate::ir::IntType;
use lang_c::ast::{
    ArraySize, Constant, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator,
    Ellipsis, Expression, FloatFormat, Integer, IntegerBase, IntegerSize, ParameterDeclaration,
    SpecifierQualifier, StorageClassSpecifier, StructType, TypeSpecifier,
};
use lang_c::span::Node;

/// A struct or union, an index into the lowering's record table
/// ([`crate::frontend::layout::Records`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RecordId(pub u32);

/// A type of the supported subset, or the reason it is not supported (reported only when an
/// entity of that type is actually used).
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    Void,
    Int(IntType),
    /// A pointer (32 bits in ILP32): its values are addresses.
    Pointer(Box<CType>),
    /// `T[n]`, or `T[]` of unknown size (`None`).
    Array(Box<CType>, Option<u64>),
    /// A struct or union.
    Record(RecordId),
    Function(Box<FunctionType>),
    Unsupported(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionType {
    pub ret: CType,
    pub params: Vec<Param>,
    /// `int f()` in C declares a function with unknown parameters.
    pub unknown_params: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Option<String>,
    pub ty: CType,
    pub span: lang_c::span::Span,
}

/// The integer type that holds a pointer's value (an address) in ILP32.
pub const POINTER_INT: IntType = IntType::UINT;

impl CType {
    /// A short description for messages (records by tag: `struct point`).
    pub fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(t) => t.c_name().into(),
            CType::Pointer(t) => format!("{} *", t.describe()),
            CType::Array(t, Some(n)) => format!("{}[{n}]", t.describe()),
            CType::Array(t, None) => format!("{}[]", t.describe()),
            CType::Record(_) => "struct or union".into(),
            CType::Function(_) => "function".into(),
            CType::Unsupported(what) => what.clone(),
        }
    }

    /// A scalar type (an integer or a pointer): one cell of memory, one value.
    pub fn is_scalar(&self) -> bool {
        matches!(self, CType::Int(_) | CType::Pointer(_))
    }

    /// The integer type of a scalar's value (`unsigned int` for a pointer).
    pub fn scalar(&self) -> Option<IntType> {
        match self {
            CType::Int(t) => Some(*t),
            CType::Pointer(_) => Some(POINTER_INT),
            _ => None,
        }
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Pointer(_))
    }

    /// The pointed-to type of a pointer, the element type of an array.
    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Pointer(t) | CType::Array(t, _) => Some(t),
            _ => None,
        }
    }
}

/// What the specifiers of a declaration say apart from the type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    pub typedef: bool,
    pub is_extern: bool,
    pub is_static: bool,
}

/// What type resolution needs from its context: typedef names, struct and union definitions
/// and references, the constants of enum definitions, and the values of array sizes.
pub trait TypeEnv {
    fn typedef(&self, name: &str) -> Option<CType>;
    /// A struct or union specifier: a definition (registered) or a reference by tag (an
    /// incomplete record until it is defined).
    fn record(&mut self, s: &Node<StructType>) -> CType;
    /// Registers the constants of an enum definition.
    fn enumeration(&mut self, e: &lang_c::ast::EnumType);
    /// The value of an array size (an integer constant expression), or why it has none.
    fn array_size(&mut self, e: &Node<Expression>) -> Result<u64, String>;
}

#[derive(Default)]
struct SpecCount {
    void: bool,
    char: u8,
    short: u8,
    int: u8,
    long: u8,
    signed: u8,
    unsigned: u8,
    bool_: u8,
    other: Option<CType>,
    float: bool,
}

fn base_type(count: SpecCount) -> CType {
    if count.float {
        return CType::Unsupported("floating-point types".into());
    }
    if let Some(t) = count.other {
        return t;
    }
    if count.void {
        return CType::Void;
    }
    let signed = count.unsigned == 0;
    let kind = if count.bool_ > 0 {
        return CType::Int(IntType::BOOL);
    } else if count.char > 0 {
        crate::ir::IntKind::Char
    } else if count.short > 0 {
        crate::ir::IntKind::Short
    } else if count.long >= 2 {
        crate::ir::IntKind::LongLong
    } else if count.long == 1 {
        crate::ir::IntKind::Long
    } else {
        crate::ir::IntKind::Int
    };
    // No type specifier at all is `int` (implicit int of old-style declarations such as
    // `extern __VERIFIER_nondet_int();`).
    let _ = (count.int, count.signed);
    CType::Int(IntType { kind, signed })
}

fn count_specifier(count: &mut SpecCount, ts: &TypeSpecifier, env: &mut dyn TypeEnv) {
    match ts {
        TypeSpecifier::Void => count.void = true,
        TypeSpecifier::Char => count.char += 1,
        TypeSpecifier::Short => count.short += 1,
        TypeSpecifier::Int => count.int += 1,
        TypeSpecifier::Long => count.long += 1,
        TypeSpecifier::Signed => count.signed += 1,
        TypeSpecifier::Unsigned => count.unsigned += 1,
        TypeSpecifier::Bool => count.bool_ += 1,
        TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::TS18661Float(_) => {
            count.float = true
        }
        TypeSpecifier::Complex => count.other = Some(CType::Unsupported("complex types".into())),
        TypeSpecifier::Atomic(_) => count.other = Some(CType::Unsupported("atomic types".into())),
        TypeSpecifier::Struct(s) => count.other = Some(env.record(s)),
        TypeSpecifier::Enum(e) => {
            env.enumeration(&e.node);
            count.other = Some(CType::Int(IntType::INT))
        }
        TypeSpecifier::TypedefName(id) => {
            count.other =
                Some(env.typedef(&id.node.name).unwrap_or_else(|| {
                    CType::Unsupported(format!("unknown type '{}'", id.node.name))
                }))
        }
        TypeSpecifier::TypeOf(_) => count.other = Some(CType::Unsupported("typeof".into())),
    }
}

/// The base type and storage class of declaration specifiers.
pub fn resolve_specifiers(
    specs: &[Node<DeclarationSpecifier>],
    env: &mut dyn TypeEnv,
) -> (CType, Storage) {
    let mut count = SpecCount::default();
    let mut storage = Storage::default();
    for s in specs {
        match &s.node {
            DeclarationSpecifier::StorageClass(sc) => match sc.node {
                StorageClassSpecifier::Typedef => storage.typedef = true,
                StorageClassSpecifier::Extern => storage.is_extern = true,
                StorageClassSpecifier::Static => storage.is_static = true,
                StorageClassSpecifier::ThreadLocal => {
                    count.other = Some(CType::Unsupported("thread-local storage".into()))
                }
                StorageClassSpecifier::Auto | StorageClassSpecifier::Register => {}
            },
            DeclarationSpecifier::TypeSpecifier(ts) => count_specifier(&mut count, &ts.node, env),
            DeclarationSpecifier::TypeQualifier(_)
            | DeclarationSpecifier::Function(_)
            | DeclarationSpecifier::Alignment(_)
            | DeclarationSpecifier::Extension(_) => {}
        }
    }
    (base_type(count), storage)
}

/// The type named by the specifiers of a type name (casts, `sizeof`) or a struct field.
pub fn resolve_specifier_qualifiers(
    specs: &[Node<SpecifierQualifier>],
    env: &mut dyn TypeEnv,
) -> CType {
    let mut count = SpecCount::default();
    for s in specs {
        if let SpecifierQualifier::TypeSpecifier(ts) = &s.node {
            count_specifier(&mut count, &ts.node, env);
        }
    }
    base_type(count)
}

/// The name a declarator declares.
pub fn declarator_name(d: &Declarator) -> Option<&Node<lang_c::ast::Identifier>> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// Applies the derived declarators (pointer, array, function) to a base type. C reads them
/// inside out: in `int *a[3]`, `a` is an array of 3 pointers; in `int (*p)[3]`, `p` is a
/// pointer to an array of 3 ints. The derived list of a declarator applies to the base type
/// in order (pointers first, then arrays and functions from right to left as written), and
/// a parenthesised inner declarator applies to the result.
pub fn apply_declarator(base: CType, d: &Declarator, env: &mut dyn TypeEnv) -> CType {
    let mut ty = base;
    // Pointers apply first; array and function declarators after them, rightmost first
    // innermost: `int a[2][3]` is an array of 2 arrays of 3 ints.
    let (pointers, rest): (Vec<_>, Vec<_>) = d.derived.iter().partition(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_)
        )
    });
    for derived in &pointers {
        ty = match &derived.node {
            DerivedDeclarator::Pointer(_) => CType::Pointer(Box::new(ty)),
            _ => CType::Unsupported("blocks".into()),
        };
    }
    for derived in rest.iter().rev() {
        ty = match &derived.node {
            DerivedDeclarator::Array(a) => match &a.node.size {
                ArraySize::Unknown => CType::Array(Box::new(ty), None),
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    match env.array_size(e) {
                        Ok(n) => CType::Array(Box::new(ty), Some(n)),
                        Err(why) => CType::Unsupported(why),
                    }
                }
                ArraySize::VariableUnknown => CType::Unsupported("variable-length arrays".into()),
            },
            DerivedDeclarator::KRFunction(ids) => {
                if !ids.is_empty() {
                    CType::Unsupported("K&R-style function definitions".into())
                } else {
                    CType::Function(Box::new(FunctionType {
                        ret: ty,
                        params: Vec::new(),
                        unknown_params: true,
                    }))
                }
            }
            DerivedDeclarator::Function(f) => {
                if f.node.ellipsis == Ellipsis::Some {
                    CType::Function(Box::new(FunctionType {
                        ret: ty,
                        params: Vec::new(),
                        unknown_params: true,
                    }))
                } else {
                    let params = parameters(&f.node.parameters, env);
                    CType::Function(Box::new(FunctionType {
                        ret: ty,
                        params,
                        unknown_params: false,
                    }))
                }
            }
            DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => ty,
        };
    }
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        ty = apply_declarator(ty, &inner.node, env);
        if let CType::Pointer(t) = &ty {
            if matches!(**t, CType::Function(_)) {
                return CType::Unsupported("function pointers".into());
            }
        }
    }
    ty
}

fn parameters(params: &[Node<ParameterDeclaration>], env: &mut dyn TypeEnv) -> Vec<Param> {
    let mut out = Vec::new();
    for p in params {
        let (base, _) = resolve_specifiers(&p.node.specifiers, env);
        let (name, ty) = match &p.node.declarator {
            Some(d) => (
                declarator_name(&d.node).map(|n| n.node.name.clone()),
                apply_declarator(base, &d.node, env),
            ),
            None => (None, base),
        };
        // `f(void)` declares no parameters.
        if params.len() == 1 && name.is_none() && ty == CType::Void {
            return Vec::new();
        }
        // A parameter of array type is a pointer (C11 6.7.6.3p7), of function type a
        // function pointer.
        let ty = match ty {
            CType::Array(t, _) => CType::Pointer(t),
            CType::Function(_) => CType::Unsupported("function pointers".into()),
            other => other,
        };
        out.push(Param {
            name,
            ty,
            span: p.span,
        });
    }
    out
}

/// The value and type of an integer constant (C11 6.4.4.1), or why it is not supported.
pub fn integer_constant(i: &Integer) -> Result<(i128, IntType), String> {
    let digits: String = i.number.chars().filter(|c| *c != '\'').collect();
    let radix = match i.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = if digits.is_empty() {
        "0".to_string()
    } else {
        digits
    };
    let value = u128::from_str_radix(&digits, radix)
        .map_err(|_| format!("invalid integer constant '{}'", i.number))?;
    if value > u64::MAX as u128 {
        return Err(format!("integer constant '{}' is too large", i.number));
    }
    let value = value as i128;
    if i.suffix.imaginary {
        return Err("imaginary constants are not supported".into());
    }
    let decimal = i.base == IntegerBase::Decimal;
    let unsigned = i.suffix.unsigned;
    let candidates: &[IntType] = match (i.suffix.size, unsigned, decimal) {
        (IntegerSize::Int, false, true) => &[IntType::INT, IntType::LONG, IntType::LLONG],
        (IntegerSize::Int, false, false) => &[
            IntType::INT,
            IntType::UINT,
            IntType::LONG,
            IntType::ULONG,
            IntType::LLONG,
            IntType::ULLONG,
        ],
        (IntegerSize::Int, true, _) => &[IntType::UINT, IntType::ULONG, IntType::ULLONG],
        (IntegerSize::Long, false, true) => &[IntType::LONG, IntType::LLONG],
        (IntegerSize::Long, false, false) => &[
            IntType::LONG,
            IntType::ULONG,
            IntType::LLONG,
            IntType::ULLONG,
        ],
        (IntegerSize::Long, true, _) => &[IntType::ULONG, IntType::ULLONG],
        (IntegerSize::LongLong, false, true) => &[IntType::LLONG],
        (IntegerSize::LongLong, false, false) => &[IntType::LLONG, IntType::ULLONG],
        (IntegerSize::LongLong, true, _) => &[IntType::ULLONG],
    };
    candidates
        .iter()
        .find(|t| t.contains(value))
        .map(|t| (value, *t))
        .ok_or_else(|| {
            format!(
                "integer constant '{}' does not fit any integer type",
                i.number
            )
        })
}

/// The value of a character constant such as `'a'`, `'\n'`, `'\x41'` (type `int`).
pub fn char_constant(text: &str) -> Result<i128, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| format!("unsupported character constant {text}"))?;
    let bytes = inner.as_bytes();
    let v: i128 = if let Some(rest) = inner.strip_prefix('\\') {
        let esc = rest.as_bytes();
        match esc.first() {
            Some(b'n') => 10,
            Some(b't') => 9,
            Some(b'r') => 13,
            Some(b'0'..=b'7') => {
                i128::from_str_radix(rest, 8).map_err(|_| format!("bad escape in {text}"))?
            }
            Some(b'x') => {
                i128::from_str_radix(&rest[1..], 16).map_err(|_| format!("bad escape in {text}"))?
            }
            Some(b'a') => 7,
            Some(b'b') => 8,
            Some(b'f') => 12,
            Some(b'v') => 11,
            Some(b'\\') => 92,
            Some(b'\'') => 39,
            Some(b'"') => 34,
            Some(b'?') => 63,
            _ => return Err(format!("unsupported escape in {text}")),
        }
    } else if bytes.len() == 1 {
        i128::from(bytes[0])
    } else {
        return Err(format!("unsupported character constant {text}"));
    };
    // Plain char is signed: '\xff' is -1.
    Ok(IntType::CHAR.wrap(v))
}

pub fn constant(c: &Constant) -> Result<(i128, IntType), String> {
    match c {
        Constant::Integer(i) => integer_constant(i),
        Constant::Character(s) => char_constant(s).map(|v| (v, IntType::INT)),
        Constant::Float(f) => Err(match f.suffix.format {
            FloatFormat::Float | FloatFormat::Double | FloatFormat::LongDouble => {
                "floating-point constants are not supported".to_string()
            }
            _ => "floating-point constants are not supported".to_string(),
        }),
    }
}
