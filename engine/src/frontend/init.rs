//! Initializers (C11 6.7.9): scalars, initializer lists with nested braces, brace elision and
//! designators (`.x = 1`, `[3] = 2`), string literals for `char` arrays; and the size of an
//! array of unknown size from its initializer. The result is the value of each initialized
//! cell; the other cells of an object with an initializer are zero.

use crate::diag::Span;
use crate::frontend::builder::FnBuilder;
use crate::frontend::layout::int_size;
use crate::frontend::value::Place;

use crate::frontend::types::CType;
use crate::ir::Expr;
use lang_c::ast::{Designator, Expression, Initializer, InitializerListItem};
use lang_c::span::Node as AstNode;
use std::collections::BTreeMap;

/// The value of each initialized cell, by offset.
pub type CellValues = BTreeMap<u64, Expr>;

/// The bytes of a string literal (the pieces of `"ab" "c"` joined), with its final zero.
pub fn string_bytes(parts: &[String]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for p in parts {
        let inner = p
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .ok_or_else(|| format!("unsupported string literal {p}"))?;
        let b = inner.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                out.push(b[i]);
                i += 1;
                continue;
            }
            i += 1;
            let Some(&c) = b.get(i) else {
                return Err(format!("bad escape in {p}"));
            };
            i += 1;
            let v: u32 = match c {
                b'n' => 10,
                b't' => 9,
                b'r' => 13,
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'v' => 11,
                b'\\' => 92,
                b'\'' => 39,
                b'"' => 34,
                b'?' => 63,
                b'0'..=b'7' => {
                    let mut v = u32::from(c - b'0');
                    let mut k = 0;
                    while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                        v = v * 8 + u32::from(b[i] - b'0');
                        i += 1;
                        k += 1;
                    }
                    v
                }
                b'x' => {
                    let mut v = 0u32;
                    while i < b.len() && b[i].is_ascii_hexdigit() {
                        v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                        i += 1;
                    }
                    v
                }
                _ => return Err(format!("unsupported escape in {p}")),
            };
            out.push(v as u8);
        }
    }
    out.push(0);
    Ok(out)
}

impl FnBuilder<'_, '_> {
    /// The complete type of a declaration `ty` with initializer `init`: an array of unknown
    /// size gets the size its initializer gives it.
    pub fn complete_type(&mut self, ty: CType, init: Option<&AstNode<Initializer>>) -> CType {
        let CType::Array(elem, None) = &ty else {
            return ty;
        };
        match init.map(|i| &i.node) {
            Some(Initializer::Expression(e)) => {
                if let Expression::StringLiteral(parts) = &e.node {
                    if let Ok(b) = string_bytes(&parts.node) {
                        return CType::Array(elem.clone(), Some(b.len() as u64));
                    }
                }
                ty
            }
            Some(Initializer::List(items)) => {
                let mut n = 0u64;
                let mut at = 0u64;
                for it in items {
                    if let Some(d) = it.node.designation.first() {
                        if let Designator::Index(e) = &d.node {
                            if let Some((v, _)) = self.lw.const_expr(e, self.scopes.last()) {
                                at = v.max(0) as u64;
                            }
                        }
                    }
                    at += 1;
                    n = n.max(at);
                }
                CType::Array(elem.clone(), Some(n))
            }
            None => ty,
        }
    }

    /// The values an initializer gives the cells of an object of type `ty` (offsets from
    /// the object's start). A struct initialized from a struct value is copied by the caller
    /// (`Err(place)`).
    pub fn init_values(
        &mut self,
        ty: &CType,
        init: &AstNode<Initializer>,
        span: Span,
    ) -> Option<Result<CellValues, Place>> {
        let mut out = CellValues::new();
        match &init.node {
            Initializer::Expression(e) => {
                if let (CType::Array(elem, Some(n)), Expression::StringLiteral(parts)) =
                    (ty, &e.node)
                {
                    self.string_init(elem, *n, 0, &parts.node, span, &mut out)?;
                    return Some(Ok(out));
                }
                if let CType::Record(_) = ty {
                    return Some(Err(self.place(e)?));
                }
                if ty.is_scalar() {
                    let v = self.assigned_value(ty, e, span)?;
                    out.insert(0, v.e.convert(ty.scalar()?));
                    return Some(Ok(out));
                }
                self.error(
                    span,
                    format!(
                        "an object of type {} needs an initializer list",
                        ty.describe()
                    ),
                );
                None
            }
            Initializer::List(items) => {
                if ty.is_scalar() {
                    // `int x = {1};`
                    if let Some(first) = items.first() {
                        return self.init_values(ty, &first.node.initializer, span);
                    }
                    out.insert(0, Expr::constant(ty.scalar()?, 0));
                    return Some(Ok(out));
                }
                let mut idx = 0;
                self.fill(ty, 0, items, &mut idx, span, &mut out)?;
                if idx < items.len() {
                    self.lw
                        .warn(span, "excess elements in an initializer are ignored");
                }
                Some(Ok(out))
            }
        }
    }

    pub(crate) fn string_init(
        &mut self,
        elem: &CType,
        n: u64,
        base: u64,
        parts: &[String],
        span: Span,
        out: &mut CellValues,
    ) -> Option<()> {
        let CType::Int(t) = elem else {
            self.error(
                span,
                "a string literal initializes an array of characters only",
            );
            return None;
        };
        if int_size(*t) != 1 {
            self.error(
                span,
                "a string literal initializes an array of characters only",
            );
            return None;
        }
        let bytes = match string_bytes(parts) {
            Ok(b) => b,
            Err(e) => {
                self.error(span, e);
                return None;
            }
        };
        for (k, b) in bytes.iter().enumerate().take(n as usize) {
            out.insert(base + k as u64, Expr::constant(*t, t.wrap(i128::from(*b))));
        }
        Some(())
    }

    /// The sub-objects of an aggregate: (type, offset) in order.
    pub(crate) fn members(&self, ty: &CType) -> Vec<(CType, u64, Option<String>)> {
        match ty {
            CType::Array(e, Some(n)) => {
                let s = self.lw.records.size_of(e).unwrap_or(0);
                (0..*n).map(|k| ((**e).clone(), k * s, None)).collect()
            }
            CType::Record(r) => {
                let rec = self.lw.records.get(*r);
                let fields = if rec.union {
                    &rec.fields[..rec.fields.len().min(1)]
                } else {
                    &rec.fields[..]
                };
                fields
                    .iter()
                    .map(|f| (f.ty.clone(), f.offset, f.name.clone()))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Initializes the aggregate `ty` at `base` from `items[*idx..]` (brace elision: a
    /// sub-aggregate without braces takes the items that follow).
    pub(crate) fn fill(
        &mut self,
        ty: &CType,
        base: u64,
        items: &[AstNode<InitializerListItem>],
        idx: &mut usize,
        span: Span,
        out: &mut CellValues,
    ) -> Option<()> {
        let members = self.members(ty);
        let mut m = 0;
        while *idx < items.len() {
            let item = &items[*idx];
            if let Some(d) = item.node.designation.first() {
                let pos = match &d.node {
                    Designator::Member(id) => members
                        .iter()
                        .position(|(_, _, n)| n.as_deref() == Some(id.node.name.as_str())),
                    Designator::Index(e) => self
                        .lw
                        .const_expr(e, self.scopes.last())
                        .and_then(|(v, _)| usize::try_from(v).ok()),
                    Designator::Range(_) => None,
                };
                let Some(pos) = pos.filter(|p| *p < members.len()) else {
                    // A designator of an enclosing aggregate ends this one.
                    if base != 0 || m > 0 {
                        return Some(());
                    }
                    self.error(span, "an initializer designator names no member");
                    return None;
                };
                if item.node.designation.len() > 1 {
                    self.error(span, "nested designators are not supported");
                    return None;
                }
                m = pos;
            } else if m >= members.len() {
                return Some(());
            }
            let (mty, moff, _) = members[m].clone();
            let at = base + moff;
            match &item.node.initializer.node {
                Initializer::List(sub) => {
                    if mty.is_scalar() {
                        if let Some(first) = sub.first() {
                            if let Initializer::Expression(e) = &first.node.initializer.node {
                                let v = self.assigned_value(&mty, e, span)?;
                                out.insert(at, v.e.convert(mty.scalar()?));
                            }
                        }
                    } else {
                        let mut k = 0;
                        self.fill(&mty, at, sub, &mut k, span, out)?;
                    }
                    *idx += 1;
                }
                Initializer::Expression(e) => {
                    if mty.is_scalar() {
                        let v = self.assigned_value(&mty, e, span)?;
                        out.insert(at, v.e.convert(mty.scalar()?));
                        *idx += 1;
                    } else if let (CType::Array(elem, Some(n)), Expression::StringLiteral(parts)) =
                        (&mty, &e.node)
                    {
                        self.string_init(elem, *n, at, &parts.node, span, out)?;
                        *idx += 1;
                    } else if matches!(mty, CType::Record(_))
                        && matches!(self.type_of(e), Some(CType::Record(_)))
                    {
                        // A struct member initialized from a struct value.
                        let src = self.place(e)?;
                        let vals = self.cell_values(&src, span)?;
                        let cells = self.lw.records.cells(&mty)?;
                        for (c, v) in cells.iter().zip(vals) {
                            out.insert(at + c.offset, v);
                        }
                        *idx += 1;
                    } else {
                        // Brace elision.
                        self.fill(&mty, at, items, idx, span, out)?;
                    }
                }
            }
            m += 1;
        }
        Some(())
    }

    /// The initial value of each cell of an object: the initializer's, zero for the cells it
    /// does not mention (when there is one, or the object is static), else none (any value).
    pub fn cell_inits(
        &mut self,
        ty: &CType,
        values: Option<&CellValues>,
        zero: bool,
    ) -> Vec<Option<Expr>> {
        let cells = self.lw.records.cells(ty).unwrap_or_default();
        cells
            .iter()
            .map(|c| match values.and_then(|v| v.get(&c.offset)) {
                Some(e) => Some(e.clone().convert(c.ty)),
                None if zero || values.is_some() => Some(Expr::constant(c.ty, 0)),
                None => None,
            })
            .collect()
    }
}
