//! The objects of the memory model and the memory operations waiting for them (see
//! [`crate::frontend::memory`] for the model): identities, kinds and layouts of objects,
//! addresses, and the linear form of an address by which an access tests its target.

use crate::cfa::NodeId;
use crate::diag::Span;
use crate::frontend::layout::Cell;
use crate::frontend::types::{CType, RecordId, POINTER_INT};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntType, VarId};

/// An object of the memory model (an index into [`Lowerer::objects`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjId(pub u32);

/// Where an object lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Global,
    /// A local of a function (its parameters included).
    Local(FuncId),
    /// An allocation site (`malloc`, `calloc`, `alloca`) at a line; `alloca`'s objects die
    /// at the function's exit like locals.
    Heap {
        line: u32,
        stack: Option<FuncId>,
    },
    /// A string literal: read-only.
    Literal,
}

#[derive(Clone, Debug)]
pub struct Object {
    /// How the object is shown: the variable's name, `malloc@12`, `"abc"`.
    pub name: String,
    pub kind: ObjectKind,
    pub ty: CType,
    pub base: u64,
    pub size: u64,
    /// The cells in address order, each with its variable.
    pub cells: Vec<(Cell, VarId)>,
    /// Set while the object exists (escaped locals and heap objects; globals always exist).
    pub alive: Option<VarId>,
    /// Its address escapes: accesses through pointers of unknown provenance may reach it.
    pub escaped: bool,
    pub readonly: bool,
}

/// Address spacing of objects.
pub const OBJECT_SPACING: u64 = 1 << 21;
/// Largest object in bytes. With objects [`OBJECT_SPACING`] apart, an address computed from
/// a pointer into one object by adding less than this many bytes never lands in a cell of
/// another object: pointer arithmetic whose index is not checked exactly is checked to move
/// less than this ([`Lowerer::offset_limit`]).
pub const MAX_OBJECT_BYTES: u64 = 1 << 20;
/// Most objects (addresses stay below 2^32).
pub const MAX_OBJECTS: usize = 2000;
/// Most candidate cells of one access through a pointer of unknown provenance.
pub const MAX_CANDIDATES: usize = 4096;

/// A memory operation at a dynamic address, lowered once every object is known (an access
/// through a pointer may reach an object allocated later in the program text).
#[derive(Clone, Debug)]
pub enum MemOp {
    /// `dst = *addr` at access type `ty`.
    Read {
        dst: VarId,
        addr: Expr,
        ty: IntType,
        obj: Option<ObjId>,
        member: Option<(RecordId, u64)>,
    },
    /// `*addr = value` at access type `ty`.
    Write {
        addr: Expr,
        value: Expr,
        ty: IntType,
        obj: Option<ObjId>,
        member: Option<(RecordId, u64)>,
    },
    /// `free(ptr)`: the heap object starting at `ptr` dies (null: nothing).
    Free { ptr: Expr },
}

/// A memory operation waiting for the objects: it replaces the placeholder edge
/// `from -> to`.
#[derive(Clone, Debug)]
pub struct Pending {
    pub from: NodeId,
    pub to: NodeId,
    pub function: FuncId,
    pub op: MemOp,
    pub span: Span,
    /// The source text of the statement, for the labels of the edges it becomes.
    pub text: String,
}

/// The address `base` as an expression.
pub fn address(a: u64) -> Expr {
    Expr::constant(POINTER_INT, a as i128)
}

pub(crate) fn eq(a: Expr, b: Expr) -> Expr {
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(BinOp::Eq, Box::new(a), Box::new(b)),
    }
}

pub(crate) fn or(a: Expr, b: Expr) -> Expr {
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(BinOp::LogOr, Box::new(a), Box::new(b)),
    }
}

pub(crate) fn and(a: Expr, b: Expr) -> Expr {
    Expr {
        ty: IntType::INT,
        kind: ExprKind::Binary(BinOp::LogAnd, Box::new(a), Box::new(b)),
    }
}

pub(crate) fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    Expr {
        ty: a.ty,
        kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
    }
}

/// An address as `c + s·x` (mod 2^32) for one non-constant part `x` (an index, a pointer
/// variable) and constants `c` and `s`, or as a constant.
#[derive(Clone, Debug)]
pub struct Linear {
    pub c: i128,
    pub term: Option<(Expr, i128)>,
}

/// The linear form of an address expression, if it has at most one non-constant part.
/// Conversions to the address type are looked through: modulo 2^32 they do not change the
/// value, and the part is then compared by its own (C) value, which is what C's pointer
/// arithmetic means.
pub fn linear(e: &Expr) -> Option<Linear> {
    let m = 1i128 << 32;
    let norm = |l: Linear| Linear {
        c: l.c.rem_euclid(m),
        term: l.term.filter(|(_, s)| s.rem_euclid(m) != 0),
    };
    Some(norm(match &e.kind {
        ExprKind::Const(v) => Linear { c: *v, term: None },
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) if e.ty == POINTER_INT => {
            let (la, lb) = (linear(a)?, linear(b)?);
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            let term = match (la.term, lb.term) {
                (Some(t), None) => Some(t),
                (None, Some((x, s))) => Some((x, sign * s)),
                (None, None) => None,
                (Some((x, s)), Some((y, t))) if x == y => Some((x, s + sign * t)),
                _ => return None,
            };
            Linear {
                c: la.c + sign * lb.c,
                term,
            }
        }
        ExprKind::Unary(crate::ir::UnOp::Neg, a) if e.ty == POINTER_INT => {
            let l = linear(a)?;
            Linear {
                c: -l.c,
                term: l.term.map(|(x, s)| (x, -s)),
            }
        }
        ExprKind::Binary(BinOp::Mul, a, b) if e.ty == POINTER_INT => {
            let (la, lb) = (linear(a)?, linear(b)?);
            match (la.term, lb.term) {
                (Some((x, s)), None) => Linear {
                    c: la.c * lb.c,
                    term: Some((x, s * lb.c)),
                },
                (None, Some((x, s))) => Linear {
                    c: la.c * lb.c,
                    term: Some((x, s * la.c)),
                },
                (None, None) => Linear {
                    c: la.c * lb.c,
                    term: None,
                },
                _ => return None,
            }
        }
        ExprKind::Cast { operand, .. } if e.ty == POINTER_INT => {
            match linear(operand) {
                // A conversion of an address computation (an integer holding a pointer).
                Some(l) if operand.ty == POINTER_INT => l,
                _ => Linear {
                    c: 0,
                    term: Some(((**operand).clone(), 1)),
                },
            }
        }
        _ => Linear {
            c: 0,
            term: Some((e.clone(), 1)),
        },
    }))
}

/// Whether `addr` is the address `a`: by the index when `addr` has one non-constant part
/// (`i == 2` for `&a[0] + 4·i` and `a = &a[2]`, exact over the integers as C's pointer
/// arithmetic is), else by the addresses modulo 2^32. With the condition, the index value
/// it tests for (`None`: not an index test; `Some(None)`: never).
pub(crate) fn at_address(
    addr: &Expr,
    form: &Option<Linear>,
    a: u64,
) -> (Expr, Option<Option<i128>>) {
    match form {
        Some(Linear {
            c,
            term: Some((x, s)),
        }) => {
            // The smallest offset from `c` to `a` (of either sign): a larger one would wrap
            // around the address space, which no valid pointer arithmetic does.
            let sym = |v: i128| {
                let v = v.rem_euclid(1i128 << 32);
                if v > (1i128 << 31) {
                    v - (1i128 << 32)
                } else {
                    v
                }
            };
            let (d, s) = (sym(i128::from(a) - c), sym(*s));
            if d % s != 0 || !x.ty.contains(d / s) {
                return (Expr::constant(IntType::INT, 0), Some(None));
            }
            (
                eq(x.clone(), Expr::constant(x.ty, d / s)),
                Some(Some(d / s)),
            )
        }
        _ => (eq(addr.clone(), address(a)), None),
    }
}

/// The disjunction of candidates' conditions, with a run of index tests `x == lo`, ...,
/// `x == hi` of one object written as `lo <= x && x <= hi`.
pub(crate) fn any_of(form: &Option<Linear>, conds: Vec<(Expr, Option<Option<i128>>)>) -> Expr {
    let x = form.as_ref().and_then(|l| l.term.as_ref()).map(|(x, _)| x);
    let mut keys: Vec<i128> = Vec::new();
    let mut all_keys = x.is_some();
    for (_, k) in &conds {
        match k {
            Some(Some(k)) => keys.push(*k),
            Some(None) => {}
            None => all_keys = false,
        }
    }
    keys.sort_unstable();
    keys.dedup();
    if let (Some(x), true, Some(lo), Some(hi)) = (x, all_keys, keys.first(), keys.last()) {
        if hi - lo + 1 == keys.len() as i128 && keys.len() > 2 {
            let ge = Expr {
                ty: IntType::INT,
                kind: ExprKind::Binary(
                    BinOp::Le,
                    Box::new(Expr::constant(x.ty, *lo)),
                    Box::new(x.clone()),
                ),
            };
            let le = Expr {
                ty: IntType::INT,
                kind: ExprKind::Binary(
                    BinOp::Le,
                    Box::new(x.clone()),
                    Box::new(Expr::constant(x.ty, *hi)),
                ),
            };
            return and(ge, le);
        }
    }
    conds
        .into_iter()
        .filter(|(_, k)| *k != Some(None))
        .map(|(c, _)| c)
        .reduce(or)
        .unwrap_or_else(|| Expr::constant(IntType::INT, 0))
}
