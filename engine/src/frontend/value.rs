//! What lowering an expression gives: a value with its C type ([`Val`]), or a place that can
//! be read and written ([`Place`]); and what a call's result is wanted for ([`Want`]).

use crate::frontend::objects::ObjId;

use crate::frontend::types::{CType, RecordId, POINTER_INT};
use crate::ir::{BinOp, Expr, ExprKind, VarId};

/// A value: a pure expression, its C type, and for a pointer the object it must point into
/// when that is known from the syntax (its provenance: `&a[i]`, `s.arr + 1`).
#[derive(Clone, Debug)]
pub struct Val {
    pub e: Expr,
    pub ty: CType,
    pub obj: Option<ObjId>,
}

impl Val {
    pub fn int(e: Expr) -> Val {
        let ty = CType::Int(e.ty);
        Val { e, ty, obj: None }
    }
}

/// Where a value is stored.
#[derive(Clone, Debug)]
pub enum Place {
    /// A scalar variable that does not live in memory.
    Var(VarId, CType),
    /// Memory at an address (an `unsigned int` expression), inside `obj` when known.
    Mem {
        addr: Expr,
        ty: CType,
        obj: Option<ObjId>,
        /// For a member of a struct or union reached through a pointer: that record and
        /// the member's offset in it (an access may only reach such a member's cells).
        member: Option<(RecordId, u64)>,
    },
}

impl Place {
    pub fn ty(&self) -> &CType {
        match self {
            Place::Var(_, t) | Place::Mem { ty: t, .. } => t,
        }
    }
}

/// `a + b` in the pointer type (addresses wrap modulo 2^32 like the unsigned type).
pub fn add_addr(a: Expr, off: Expr) -> Expr {
    let e = Expr {
        ty: POINTER_INT,
        kind: ExprKind::Binary(
            BinOp::Add,
            Box::new(a.convert(POINTER_INT)),
            Box::new(off.convert(POINTER_INT)),
        ),
    };
    crate::frontend::arith::fold(e)
}

/// What a call's result is used for.
#[derive(Clone)]
pub(crate) enum Want {
    Discard,
    /// Into this place (a struct result is copied there).
    Into(Place),
    Value,
}
