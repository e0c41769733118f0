//! Calls: of the program's functions (arguments and results of every type, structs by value
//! through their cells), of the verification harness and of the library functions the front
//! end models (allocation, `free`, `memset`, `memcpy`, output), and of functions declared
//! without a body (SV-COMP's convention: any value of the return type, and the objects their
//! pointer arguments point to get any values).

use crate::cfa::{EdgeKind, NodeKind, Rhs, Ub};
use crate::diag::Span;
use crate::frontend::arith::has_side_effects;
use crate::frontend::builder::FnBuilder;
use crate::frontend::builtins::{builtin, Builtin};
use crate::frontend::value::{Place, Val, Want};

use crate::frontend::objects::{address, MemOp, ObjId, ObjectKind};

use crate::frontend::scope::Binding;

use crate::frontend::types::{CType, POINTER_INT};
use crate::ir::{Expr, IntType, VarId};
use lang_c::ast::{CallExpression, Expression};
use lang_c::span::Node as AstNode;

impl FnBuilder<'_, '_> {
    pub(crate) fn callee_name<'e>(&self, c: &'e CallExpression) -> Option<&'e str> {
        match &c.callee.node {
            Expression::Identifier(id) => Some(&id.node.name),
            _ => None,
        }
    }

    pub(crate) fn builtin_of(&self, name: &str) -> Option<Builtin> {
        // A local variable of that name would shadow the function; calling it is then an error
        // reported by `call`.
        let defined = self.lw.sigs.get(name).is_some_and(|s| s.def.is_some());
        builtin(name, defined, self.lw.spec)
    }

    /// The type of a call of a nondet function, if `c` is one.
    pub fn nondet_type_of(&self, c: &AstNode<CallExpression>) -> Option<IntType> {
        let name = self.callee_name(&c.node)?;
        match self.builtin_of(name)? {
            Builtin::Nondet(t) => Some(match self.lw.sigs.get(name).map(|s| &s.ty.ret) {
                Some(CType::Int(declared)) => *declared,
                _ => t,
            }),
            _ => None,
        }
    }

    pub fn is_user_call(&self, c: &AstNode<CallExpression>) -> bool {
        self.callee_name(&c.node).is_some_and(|n| {
            self.builtin_of(n).is_none() && self.lw.sigs.get(n).is_some_and(|s| s.def.is_some())
        })
    }

    /// Whether `c` calls a function returning a struct or union.
    pub fn returns_record(&self, c: &AstNode<CallExpression>) -> bool {
        self.callee_name(&c.node)
            .and_then(|n| self.lw.sigs.get(n))
            .is_some_and(|s| matches!(s.ty.ret, CType::Record(_)))
    }

    pub fn call_text(&self, c: &AstNode<CallExpression>) -> String {
        format!("{}()", self.callee_name(&c.node).unwrap_or("?"))
    }

    /// The place of the struct the function called by `c` returned (its return cells).
    pub fn returned_place(&mut self, c: &AstNode<CallExpression>, span: Span) -> Option<Place> {
        let name = self.callee_name(&c.node)?;
        let f = self.lw.sigs.get(name)?.def?;
        let Some(o) = self.lw.ret_objects.get(&f).copied() else {
            self.error(span, format!("'{name}' does not return a struct"));
            return None;
        };
        let obj = self.lw.object(o);
        Some(Place::Mem {
            addr: address(obj.base),
            ty: obj.ty.clone(),
            obj: Some(o),
            member: None,
        })
    }

    /// Lowers a call. Returns the call's value for `Want::Value` (a struct's value is its
    /// return cells' place, as a record-typed value).
    pub fn call(&mut self, c: &AstNode<CallExpression>, span: Span, want: Want) -> Option<Val> {
        let Some(name) = self.callee_name(&c.node).map(str::to_string) else {
            self.error(span, "calls through function pointers are not supported");
            return None;
        };
        if self.func.is_none() {
            self.error(span, "a function call is not a constant expression");
            return None;
        }
        if let Some(Binding::Var(..) | Binding::Object(_) | Binding::Unsupported(_)) =
            self.lookup(&name)
        {
            self.error(span, format!("'{name}' is not a function"));
            return None;
        }
        if let Some(b) = self.builtin_of(&name) {
            return self.builtin_call(b, &name, c, span, want);
        }
        let Some(sig) = self.lw.sigs.get(&name).cloned() else {
            self.error(span, format!("call to undeclared function '{name}'"));
            return None;
        };
        let Some(callee) = sig.def else {
            return self.external_call(&name, &sig.ty, c, span, want);
        };
        if name == "main" {
            // main runs once: its locals in memory live as long as the program.
            self.error(span, "calls of 'main' are not supported");
            return None;
        }
        let callee_fn = self.lw.functions[callee.0 as usize].clone();
        let args = &c.node.arguments;
        if args.len() != sig.ty.params.len() {
            self.error(
                span,
                format!(
                    "function '{name}' takes {} argument(s), {} given",
                    sig.ty.params.len(),
                    args.len()
                ),
            );
            return None;
        }
        let mut values = Vec::new();
        for (a, p) in args.iter().zip(&sig.ty.params) {
            let sp = self.span(a.span);
            match &p.ty {
                CType::Record(_) => {
                    let src = self.place(a)?;
                    values.extend(self.cell_values(&src, sp)?);
                }
                t if t.is_scalar() => {
                    let v = self.assigned_value(t, a, sp)?;
                    values.push(v.e.convert(t.scalar()?));
                }
                other => {
                    self.error(
                        sp,
                        format!("cannot pass an argument of type {}", other.describe()),
                    );
                    return None;
                }
            }
        }
        let ret_record = matches!(sig.ty.ret, CType::Record(_));
        let (assign, result) = match &want {
            Want::Discard => (None, None),
            Want::Into(Place::Var(v, ty)) if !ret_record => (
                Some(*v),
                Some(Val {
                    e: Expr::var(*v, self.lw.vars[v.0 as usize].ty),
                    ty: ty.clone(),
                    obj: None,
                }),
            ),
            Want::Into(_) | Want::Value => match callee_fn.ret {
                Some((t, _)) => {
                    let tmp = self.new_tmp(t);
                    if sig.ty.ret.is_pointer() {
                        self.lw.pointer_vars.insert(tmp);
                    }
                    (
                        Some(tmp),
                        Some(Val {
                            e: Expr::var(tmp, t),
                            ty: sig.ty.ret.clone(),
                            obj: None,
                        }),
                    )
                }
                None if ret_record => (None, None),
                None => {
                    self.error(
                        span,
                        format!("the void result of '{name}' is used as a value"),
                    );
                    return None;
                }
            },
        };
        let call_site = self.cur;
        let return_site = self.new_node();
        self.edge_to(
            callee_fn.entry,
            EdgeKind::Call {
                callee,
                args: values,
                return_site,
            },
            span,
        );
        self.edge(
            callee_fn.exit,
            return_site,
            EdgeKind::Return {
                callee,
                assign,
                call_site,
            },
            span,
        );
        self.cur = return_site;
        if ret_record && !matches!(want, Want::Discard) {
            let src = self.returned_place(c, span)?;
            if let Want::Into(dst) = &want {
                self.copy(dst, &src, span);
            }
            return self.record_value(&src);
        }
        if let (Want::Into(dst @ Place::Mem { .. }), Some(r)) = (&want, &result) {
            self.store(dst, r.e.clone(), span);
        }
        result
    }

    /// A record place as a record-typed value.
    pub(crate) fn record_value(&self, p: &Place) -> Option<Val> {
        match p {
            Place::Mem { addr, ty, obj, .. } => Some(Val {
                e: addr.clone(),
                ty: ty.clone(),
                obj: *obj,
            }),
            Place::Var(..) => None,
        }
    }

    /// The values of every cell of a place, in address order (read before anything else
    /// happens: a struct passed by value).
    pub fn cell_values(&mut self, p: &Place, span: Span) -> Option<Vec<Expr>> {
        let Place::Mem { addr, ty, obj, .. } = p else {
            return Some(vec![self.load(p, span)?.e]);
        };
        let cells = self.lw.records.cells(ty)?;
        let base = self.stable(addr.clone(), span);
        let mut out = Vec::new();
        for c in cells {
            let at = crate::frontend::value::add_addr(
                base.clone(),
                Expr::constant(POINTER_INT, c.offset as i128),
            );
            let v = self.load(
                &Place::Mem {
                    addr: at,
                    ty: if c.pointer {
                        CType::Pointer(Box::new(CType::Void))
                    } else {
                        CType::Int(c.ty)
                    },
                    obj: *obj,
                    member: None,
                },
                span,
            )?;
            out.push(self.stable(v.e, span));
        }
        Some(out)
    }

    /// A call of a function declared without a body: its result is any value of its return
    /// type, and (SV-COMP's convention) the objects its pointer arguments point to may be
    /// written with any values.
    pub(crate) fn external_call(
        &mut self,
        name: &str,
        fty: &crate::frontend::types::FunctionType,
        c: &AstNode<CallExpression>,
        span: Span,
        want: Want,
    ) -> Option<Val> {
        if !self.lw.external_warned.contains(name) {
            self.lw.external_warned.insert(name.to_string());
            self.lw.warn(
                span,
                format!("function '{name}' has no body: a call returns any value of its type and may write any values to the objects its pointer arguments point to"),
            );
        }
        for a in &c.node.arguments {
            let v = self.value(a)?;
            if v.ty.is_pointer() {
                self.havoc_pointee(&v, span)?;
            }
        }
        let origin = format!("{name}()");
        match &fty.ret {
            CType::Void => {
                if !matches!(want, Want::Discard) {
                    self.error(
                        span,
                        format!("the void result of '{name}' is used as a value"),
                    );
                }
                None
            }
            t if t.is_scalar() => {
                let it = t.scalar()?;
                let tmp = self.new_tmp(it);
                if t.is_pointer() {
                    self.lw.pointer_vars.insert(tmp);
                }
                self.emit(
                    EdgeKind::Assign {
                        lhs: tmp,
                        rhs: Rhs::Nondet { ty: it, origin },
                    },
                    span,
                );
                let v = Val {
                    e: Expr::var(tmp, it),
                    ty: t.clone(),
                    obj: None,
                };
                if let Want::Into(p) = &want {
                    self.store(p, v.e.clone(), span);
                }
                Some(v)
            }
            other => {
                self.error(
                    span,
                    format!(
                        "'{name}' has no body and returns {}, which cannot be modelled",
                        other.describe()
                    ),
                );
                None
            }
        }
    }

    /// Any values into the object a pointer argument of an external function points to:
    /// known statically; else (a pointer of unknown provenance) not modelled.
    pub(crate) fn havoc_pointee(&mut self, v: &Val, span: Span) -> Option<()> {
        let Some(o) = v.obj else {
            if v.e.as_const() == Some(0) {
                return Some(());
            }
            self.error(
                span,
                "a pointer argument of a function without a body must point into a known object (its effects cannot be modelled otherwise)",
            );
            return None;
        };
        let cells: Vec<(VarId, IntType, bool)> = self
            .lw
            .object(o)
            .cells
            .iter()
            .map(|(c, v)| (*v, c.ty, c.pointer))
            .collect();
        if cells.iter().any(|c| c.2) {
            self.error(
                span,
                "an object with pointers passed to a function without a body: its effects cannot be modelled",
            );
            return None;
        }
        for (var, ty, _) in cells {
            self.emit(
                EdgeKind::Assign {
                    lhs: var,
                    rhs: Rhs::Nondet {
                        ty,
                        origin: "any value (external call)".into(),
                    },
                },
                span,
            );
        }
        Some(())
    }

    /// If `c` calls an allocation function (`malloc`, `calloc`, `alloca`), its lowering:
    /// `Some(value)`. The object's cells take their types from `ty`, the pointer type the
    /// result is assigned or cast to (bytes for `void *`).
    pub fn allocation(
        &mut self,
        c: &AstNode<CallExpression>,
        ty: Option<&CType>,
        span: Span,
    ) -> Option<Option<Val>> {
        let name = self.callee_name(&c.node)?.to_string();
        let b = self.builtin_of(&name)?;
        if !matches!(b, Builtin::Malloc | Builtin::Calloc | Builtin::Alloca) {
            return None;
        }
        Some(self.allocate(b, &name, c, ty, span))
    }

    pub(crate) fn allocate(
        &mut self,
        b: Builtin,
        name: &str,
        c: &AstNode<CallExpression>,
        ty: Option<&CType>,
        span: Span,
    ) -> Option<Val> {
        let Some(function) = self.func else {
            self.error(span, "an allocation is not a constant expression");
            return None;
        };
        let args = &c.node.arguments;
        let want_args = if b == Builtin::Calloc { 2 } else { 1 };
        if args.len() != want_args {
            self.error(span, format!("'{name}' takes {want_args} argument(s)"));
            return None;
        }
        let mut size = 1i128;
        for a in args {
            let e = self.rvalue(a)?;
            let Some(v) = e.as_const() else {
                self.error(
                    span,
                    format!("'{name}' of a size that is not a constant is not supported"),
                );
                return None;
            };
            size *= v;
        }
        let elem = match ty.and_then(|t| t.pointee()) {
            Some(CType::Void) | None => CType::Int(IntType::UCHAR),
            Some(t) => t.clone(),
        };
        let Some(esize) = self.lw.records.size_of(&elem) else {
            self.error(
                span,
                format!("'{name}' for a pointer to {}", elem.describe()),
            );
            return None;
        };
        if size <= 0 || esize == 0 || !(size as u64).is_multiple_of(esize) {
            self.error(
                span,
                format!(
                    "'{name}' of {size} bytes for elements of {esize} bytes is not supported (a positive multiple is)"
                ),
            );
            return None;
        }
        let n = size as u64 / esize;
        let oty = if n == 1 {
            elem.clone()
        } else {
            CType::Array(Box::new(elem.clone()), Some(n))
        };
        let line = span.start_line;
        let stack = (b == Builtin::Alloca).then_some(function);
        // Shown as `malloc@LINE` (`malloc@LINE_2` for a second one on the line); the
        // qualified name has no `@`, which separates SSA indices in formulas.
        let same_line = self
            .lw
            .objects
            .iter()
            .filter(|o| matches!(o.kind, ObjectKind::Heap { line: l, .. } if l == line))
            .count();
        let label = match same_line {
            0 => format!("{name}@{line}"),
            k => format!("{name}@{line}_{}", k + 1),
        };
        let qualified = format!("{name}#{}", self.lw.objects.len());
        let o = self.lw.new_object(
            &label,
            &qualified,
            ObjectKind::Heap { line, stack },
            oty,
            None,
            true,
            span,
        )?;
        if let Some(f) = stack {
            self.lw.frame_objects.entry(f).or_default().push(o);
        }
        let obj = self.lw.object(o).clone();
        // One object per site: running again while it is alive is not modelled.
        if let Some(alive) = obj.alive {
            let ok = self.new_node();
            let bad = self.lw.ub_node(function, Ub::Reused);
            let cond = Expr::var(alive, IntType::BOOL);
            self.edge_to(
                ok,
                EdgeKind::Assume {
                    cond: cond.clone(),
                    truth: false,
                },
                span,
            );
            self.edge_to(bad, EdgeKind::Assume { cond, truth: true }, span);
            self.cur = ok;
        }
        for (cell, var) in &obj.cells {
            let init = if b == Builtin::Calloc {
                Some(Rhs::Expr(Expr::constant(cell.ty, 0)))
            } else {
                None
            };
            self.emit(EdgeKind::Declare { var: *var, init }, span);
        }
        if let Some(alive) = obj.alive {
            self.emit(
                EdgeKind::Assign {
                    lhs: alive,
                    rhs: Rhs::Expr(Expr::constant(IntType::BOOL, 1)),
                },
                span,
            );
        }
        Some(Val {
            e: address(obj.base),
            ty: CType::Pointer(Box::new(elem)),
            obj: Some(o),
        })
    }

    pub(crate) fn builtin_call(
        &mut self,
        b: Builtin,
        name: &str,
        c: &AstNode<CallExpression>,
        span: Span,
        want: Want,
    ) -> Option<Val> {
        let args = &c.node.arguments;
        let void_result = |s: &mut Self| {
            if !matches!(want, Want::Discard) {
                s.error(span, format!("'{name}' returns no value"));
            }
            None
        };
        match b {
            Builtin::Nondet(_) => {
                let ty = self.nondet_type_of(c)?;
                let origin = self.call_text(c);
                self.nondet_into(ty, CType::Int(ty), origin, &want, span)
            }
            Builtin::NondetPointer => {
                let origin = self.call_text(c);
                let ty = CType::Pointer(Box::new(CType::Void));
                self.nondet_into(POINTER_INT, ty, origin, &want, span)
            }
            Builtin::Unsupported(what) => {
                self.error(span, format!("{what} are not supported (call to '{name}')"));
                None
            }
            Builtin::NondetUnsupported => {
                self.error(
                    span,
                    format!("'{name}' returns a type that is not supported"),
                );
                None
            }
            Builtin::Assume | Builtin::Assert => {
                if args.len() != 1 {
                    self.error(span, format!("'{name}' takes one argument"));
                    return None;
                }
                let next = self.new_node();
                let fail = if b == Builtin::Assert {
                    Some(self.error_node())
                } else {
                    None
                };
                self.condition(&args[0], Some(next), fail);
                self.cur = next;
                void_result(self)
            }
            Builtin::ReachError => {
                let err = self.error_node();
                self.edge_to(err, EdgeKind::ReachError(format!("{name}();")), span);
                self.dead();
                void_result(self)
            }
            Builtin::Abort => {
                let term = self.termination_node();
                let text = if name == "abort" {
                    "abort();".to_string()
                } else {
                    format!("{name}(...);")
                };
                self.edge_to(term, EdgeKind::Abort(text), span);
                self.dead();
                void_result(self)
            }
            Builtin::Expect => {
                // __builtin_expect(e, c) is e.
                let (first, rest) = args.split_first()?;
                let v = self.value(first)?;
                for a in rest {
                    self.effect(a);
                }
                Some(v)
            }
            Builtin::Malloc | Builtin::Calloc | Builtin::Alloca => {
                let v = self.allocate(b, name, c, None, span)?;
                if let Want::Into(p) = &want {
                    self.store(p, v.e.clone(), span);
                }
                Some(v)
            }
            Builtin::Free => {
                let [p] = &args[..] else {
                    self.error(span, "'free' takes one argument");
                    return None;
                };
                let v = self.rvalue(p)?;
                let ptr = self.stable(v.convert(POINTER_INT), span);
                let function = self.func?;
                let to = self.new_node();
                let text = self.stmt_text.clone().unwrap_or_default();
                self.lw.pending.push(crate::frontend::objects::Pending {
                    from: self.cur,
                    to,
                    function,
                    op: MemOp::Free { ptr },
                    span,
                    text,
                });
                self.cur = to;
                void_result(self)
            }
            Builtin::Memset | Builtin::Memcpy => self.mem_function(b, name, c, span, want),
            Builtin::Output => {
                for a in args {
                    if !matches!(a.node, Expression::StringLiteral(_)) && has_side_effects(&a.node)
                    {
                        self.effect(a);
                    }
                }
                let origin = format!("{name}(...)");
                self.nondet_into(IntType::INT, CType::Int(IntType::INT), origin, &want, span)
            }
        }
    }

    /// Any value of `ty` (from `origin`), as the call's result.
    pub(crate) fn nondet_into(
        &mut self,
        ty: IntType,
        cty: CType,
        origin: String,
        want: &Want,
        span: Span,
    ) -> Option<Val> {
        let nondet = Rhs::Nondet { ty, origin };
        match want {
            Want::Discard => None,
            Want::Into(Place::Var(v, vty)) if self.lw.vars[v.0 as usize].ty == ty => {
                self.emit(
                    EdgeKind::Assign {
                        lhs: *v,
                        rhs: nondet,
                    },
                    span,
                );
                Some(Val {
                    e: Expr::var(*v, ty),
                    ty: vty.clone(),
                    obj: None,
                })
            }
            Want::Into(p) => {
                let tmp = self.new_tmp(ty);
                self.emit(
                    EdgeKind::Assign {
                        lhs: tmp,
                        rhs: nondet,
                    },
                    span,
                );
                self.store(p, Expr::var(tmp, ty), span);
                let e = match p {
                    Place::Var(v, _) => Expr::var(*v, self.lw.vars[v.0 as usize].ty),
                    _ => Expr::var(tmp, ty),
                };
                Some(Val {
                    e,
                    ty: p.ty().clone(),
                    obj: None,
                })
            }
            Want::Value => {
                let tmp = self.new_tmp(ty);
                if cty.is_pointer() {
                    self.lw.pointer_vars.insert(tmp);
                }
                self.emit(
                    EdgeKind::Assign {
                        lhs: tmp,
                        rhs: nondet,
                    },
                    span,
                );
                Some(Val {
                    e: Expr::var(tmp, ty),
                    ty: cty,
                    obj: None,
                })
            }
        }
    }

    /// `memset(p, c, n)` and `memcpy(d, s, n)` on objects known statically, whole cells.
    pub(crate) fn mem_function(
        &mut self,
        b: Builtin,
        name: &str,
        c: &AstNode<CallExpression>,
        span: Span,
        want: Want,
    ) -> Option<Val> {
        let args = &c.node.arguments;
        if args.len() != 3 {
            self.error(span, format!("'{name}' takes 3 arguments"));
            return None;
        }
        let d = self.value(&args[0])?;
        let second = self.value(&args[1])?;
        let n = self.rvalue(&args[2])?;
        let Some(n) = n.as_const().and_then(|n| u64::try_from(n).ok()) else {
            self.error(
                span,
                format!("'{name}' of a length that is not a constant is not supported"),
            );
            return None;
        };
        let static_range = |s: &Self, v: &Val| -> Option<(ObjId, u64)> {
            let o = v.obj?;
            let a = u64::try_from(v.e.as_const()?).ok()?;
            let ob = s.lw.object(o);
            (a >= ob.base && a + n <= ob.base + ob.size).then_some((o, a - ob.base))
        };
        let Some((dobj, doff)) = static_range(self, &d) else {
            self.error(span, format!("'{name}' of memory that is not known statically (its object and offset) is not supported"));
            return None;
        };
        let dcells: Vec<(crate::frontend::layout::Cell, VarId)> = self
            .lw
            .object(dobj)
            .cells
            .iter()
            .filter(|(c, _)| c.offset >= doff && c.offset < doff + n)
            .cloned()
            .collect();
        let covered: u64 = dcells
            .iter()
            .map(|(c, _)| crate::frontend::layout::int_size(c.ty))
            .sum();
        if covered != n
            || dcells
                .iter()
                .any(|(c, _)| c.offset + crate::frontend::layout::int_size(c.ty) > doff + n)
        {
            self.error(
                span,
                format!("'{name}' of part of a scalar is not supported"),
            );
            return None;
        }
        match b {
            Builtin::Memset => {
                let Some(byte) = second.e.as_const() else {
                    self.error(
                        span,
                        "memset with a value that is not a constant is not supported",
                    );
                    return None;
                };
                let byte = byte & 0xff;
                for (cell, var) in &dcells {
                    let w = crate::frontend::layout::int_size(cell.ty);
                    let mut v: i128 = 0;
                    for _ in 0..w {
                        v = (v << 8) | byte;
                    }
                    self.emit(
                        EdgeKind::Assign {
                            lhs: *var,
                            rhs: Rhs::Expr(Expr::constant(cell.ty, cell.ty.wrap(v))),
                        },
                        span,
                    );
                }
            }
            _ => {
                let Some((sobj, soff)) = static_range(self, &second) else {
                    self.error(
                        span,
                        "memcpy from memory that is not known statically is not supported",
                    );
                    return None;
                };
                let scells: Vec<(crate::frontend::layout::Cell, VarId)> = self
                    .lw
                    .object(sobj)
                    .cells
                    .iter()
                    .filter(|(c, _)| c.offset >= soff && c.offset < soff + n)
                    .cloned()
                    .collect();
                let same = scells.len() == dcells.len()
                    && scells.iter().zip(&dcells).all(|((a, _), (b, _))| {
                        a.offset - soff == b.offset - doff
                            && crate::frontend::layout::int_size(a.ty)
                                == crate::frontend::layout::int_size(b.ty)
                    });
                if !same {
                    self.error(
                        span,
                        "memcpy between memory of different layouts is not supported",
                    );
                    return None;
                }
                let mut tmps = Vec::new();
                for (cell, var) in &scells {
                    let t = self.stable(Expr::var(*var, cell.ty), span);
                    tmps.push(t);
                }
                for ((cell, var), t) in dcells.iter().zip(tmps) {
                    self.emit(
                        EdgeKind::Assign {
                            lhs: *var,
                            rhs: Rhs::Expr(t.convert(cell.ty)),
                        },
                        span,
                    );
                }
            }
        }
        let _ = NodeKind::Normal;
        let v = Val {
            e: d.e,
            ty: d.ty,
            obj: d.obj,
        };
        if let Want::Into(p) = &want {
            self.store(p, v.e.clone(), span);
        }
        Some(v)
    }
}
