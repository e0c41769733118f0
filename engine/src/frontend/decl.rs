//! Local declarations: scalars as variables, arrays, structs and scalars whose address is
//! taken as objects of the memory model, `static` locals among the globals, and string
//! literals as read-only objects.

use crate::cfa::{EdgeKind, Rhs};
use crate::diag::Span;
use crate::frontend::builder::FnBuilder;
use crate::frontend::objects::{ObjId, ObjectKind};
use crate::frontend::value::Place;

use crate::frontend::scope::Binding;
use crate::frontend::types::{declarator_name, CType};
use crate::ir::{Expr, IntType, VarId};
use lang_c::ast::{Declaration, Expression, Initializer};
use lang_c::span::Node as AstNode;

impl FnBuilder<'_, '_> {
    pub fn local_declaration(&mut self, d: &AstNode<Declaration>) {
        let (base, storage) = self.lw.specifiers(&d.node.specifiers);
        for init_decl in &d.node.declarators {
            let Some(name_node) = declarator_name(&init_decl.node.declarator.node) else {
                continue;
            };
            let name = name_node.node.name.clone();
            let span = self.span(init_decl.span);
            self.stmt_text = Some(self.lw.source_text(d.span));
            let ty = self
                .lw
                .declarator_type(base.clone(), &init_decl.node.declarator.node);
            if storage.typedef {
                self.lw.typedefs.insert(name, ty);
                continue;
            }
            let init = init_decl.node.initializer.as_ref();
            match ty {
                CType::Function(f) => {
                    self.lw
                        .sigs
                        .entry(name.clone())
                        .or_insert(crate::frontend::scope::Signature { ty: *f, def: None });
                    if let Some(s) = self.scopes.last_mut() {
                        s.insert(name.clone(), Binding::Function);
                    }
                }
                CType::Void => self.error(span, format!("variable '{name}' declared void")),
                CType::Unsupported(what) => {
                    // A variable-length array is allocated when its declaration runs; other
                    // unsupported types matter only where the variable is used.
                    if init.is_some() || what.starts_with("variable-length") {
                        self.error(
                            span,
                            format!("{what} are not supported (variable '{name}')"),
                        );
                    }
                    if let Some(s) = self.scopes.last_mut() {
                        s.insert(name, Binding::Unsupported(what));
                    }
                }
                ty if ty.is_scalar() && !self.in_memory(&name, &ty) => {
                    self.scalar_declaration(&name, ty, init, storage.is_static, span)
                }
                ty => {
                    let ty = self.complete_type(ty, init);
                    self.object_declaration(&name, ty, init, storage.is_static, span);
                }
            }
        }
    }

    /// Whether a local named `name` of type `ty` lives in memory.
    pub(crate) fn in_memory(&self, name: &str, ty: &CType) -> bool {
        let e = self.lw.escapes.get(&self.fname);
        match ty {
            CType::Array(..) | CType::Record(_) => true,
            _ => e.is_some_and(|e| e.scalar_in_memory(name)),
        }
    }

    /// A scalar local that does not live in memory (as before memory existed).
    pub(crate) fn scalar_declaration(
        &mut self,
        name: &str,
        ty: CType,
        init: Option<&AstNode<Initializer>>,
        is_static: bool,
        span: Span,
    ) {
        let t = ty.scalar().unwrap_or(IntType::INT);
        let v = self.local_var(name, t, is_static, ty.is_pointer());
        if is_static {
            let init = match init {
                Some(i) => self.static_init(&ty, i, span).map(|mut vals| {
                    Rhs::Expr(vals.remove(&0).unwrap_or_else(|| Expr::constant(t, 0)))
                }),
                None => Some(Rhs::Expr(Expr::constant(t, 0))),
            };
            self.lw.global_inits.push((v, init, span));
            if let Some(s) = self.scopes.last_mut() {
                s.insert(name.to_string(), Binding::Var(v, ty));
            }
            return;
        }
        // The scope of a declared identifier begins right after its declarator.
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), Binding::Var(v, ty.clone()));
        }
        match init {
            None => self.emit(EdgeKind::Declare { var: v, init: None }, span),
            Some(AstNode {
                node: Initializer::Expression(e),
                ..
            }) => self.declare_with_init(v, &ty, e, span),
            Some(i) => {
                let vals = self.init_values(&ty, i, span);
                if let Some(Ok(mut vals)) = vals {
                    let value = vals.remove(&0).unwrap_or_else(|| Expr::constant(t, 0));
                    self.emit(
                        EdgeKind::Declare {
                            var: v,
                            init: Some(Rhs::Expr(value.convert(t))),
                        },
                        span,
                    );
                }
            }
        }
    }

    /// `T v = init;` for a scalar not in memory, as declaration edges.
    pub fn declare_with_init(
        &mut self,
        v: VarId,
        ty: &CType,
        init: &AstNode<Expression>,
        span: Span,
    ) {
        let t = self.lw.vars[v.0 as usize].ty;
        if let Expression::Call(c) = &init.node {
            if let Some(nty) = self.nondet_type_of(c) {
                if nty == t && !ty.is_pointer() {
                    let origin = self.call_text(c);
                    self.emit(
                        EdgeKind::Declare {
                            var: v,
                            init: Some(Rhs::Nondet { ty: nty, origin }),
                        },
                        span,
                    );
                    return;
                }
            } else if self.is_user_call(c) && !self.returns_record(c) {
                self.emit(EdgeKind::Declare { var: v, init: None }, span);
                self.call(
                    c,
                    span,
                    crate::frontend::value::Want::Into(Place::Var(v, ty.clone())),
                );
                return;
            }
        }
        if let Some(r) = self.assigned_value(ty, init, span) {
            self.emit(
                EdgeKind::Declare {
                    var: v,
                    init: Some(Rhs::Expr(r.e.convert(t))),
                },
                span,
            );
        }
    }

    /// The constant values of a static's initializer (by cell offset).
    pub(crate) fn static_init(
        &mut self,
        ty: &CType,
        init: &AstNode<Initializer>,
        span: Span,
    ) -> Option<crate::frontend::init::CellValues> {
        let mut cb = FnBuilder::constant_context(self.lw, self.scopes.last().cloned());
        let vals = match cb.init_values(ty, init, span)? {
            Ok(v) => v,
            Err(_) => {
                cb.error(
                    span,
                    "a static struct must be initialized by a list of constants",
                );
                return None;
            }
        };
        let mut out = crate::frontend::init::CellValues::new();
        for (off, e) in vals {
            let (c, t) = cb.fold_constant(&e, span)?;
            out.insert(off, Expr::constant(t, c));
        }
        Some(out)
    }

    /// Creates a local object (or a static one, alive always) bound to `name`.
    pub fn declare_object(
        &mut self,
        name: &str,
        ty: CType,
        is_static: bool,
        span: Span,
    ) -> Option<ObjId> {
        let func = self.func?;
        let escapes = self
            .lw
            .escapes
            .get(&self.fname)
            .cloned()
            .unwrap_or_default();
        let escaped = match &ty {
            CType::Array(..) => escapes.array_escapes(name),
            CType::Record(_) => escapes.record_escapes(name),
            _ => true,
        };
        let count = self.name_counts.entry(name.to_string()).or_insert(0);
        let display = if *count == 0 {
            name.to_string()
        } else {
            format!("{name}__{count}")
        };
        *count += 1;
        let (kind, function) = if is_static {
            (ObjectKind::Global, None)
        } else {
            (ObjectKind::Local(func), Some(func))
        };
        let o = self.lw.new_object(
            &display,
            &format!("{}::{display}", self.fname),
            kind,
            ty,
            function,
            escaped,
            span,
        )?;
        if self.lw.object(o).alive.is_some() {
            self.lw.frame_objects.entry(func).or_default().push(o);
        }
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), Binding::Object(o));
        }
        Some(o)
    }

    /// `alive = 1` for an object that has the flag.
    pub fn object_alive(&mut self, o: ObjId, span: Span) {
        if let Some(a) = self.lw.object(o).alive {
            self.emit(
                EdgeKind::Assign {
                    lhs: a,
                    rhs: Rhs::Expr(Expr::constant(IntType::BOOL, 1)),
                },
                span,
            );
        }
    }

    /// A local array, struct or union, or a scalar whose address is taken.
    pub(crate) fn object_declaration(
        &mut self,
        name: &str,
        ty: CType,
        init: Option<&AstNode<Initializer>>,
        is_static: bool,
        span: Span,
    ) {
        if is_static {
            let vals = match init {
                Some(i) => self.static_init(&ty, i, span),
                None => Some(crate::frontend::init::CellValues::new()),
            };
            let Some(o) = self.declare_object(name, ty.clone(), true, span) else {
                return;
            };
            let inits = self.cell_inits(&ty, vals.as_ref(), true);
            let cells: Vec<VarId> = self.lw.object(o).cells.iter().map(|(_, v)| *v).collect();
            for (v, i) in cells.into_iter().zip(inits) {
                self.lw.global_inits.push((v, i.map(Rhs::Expr), span));
            }
            return;
        }
        // The initializer is evaluated before the object exists (it cannot refer to it
        // meaningfully except by address).
        let vals = match init {
            Some(i) => match self.init_values(&ty, i, span) {
                Some(v) => Some(v),
                None => return,
            },
            None => None,
        };
        let Some(o) = self.declare_object(name, ty.clone(), false, span) else {
            return;
        };
        match vals {
            Some(Err(src)) => {
                for (_, v) in self.lw.object(o).cells.clone() {
                    self.emit(EdgeKind::Declare { var: v, init: None }, span);
                }
                let obj = self.lw.object(o);
                let dst = Place::Mem {
                    addr: crate::frontend::objects::address(obj.base),
                    ty: obj.ty.clone(),
                    obj: Some(o),
                    member: None,
                };
                self.copy(&dst, &src, span);
            }
            vals => {
                let vals = vals.map(|v| v.unwrap_or_default());
                let inits = self.cell_inits(&ty, vals.as_ref(), false);
                let cells: Vec<VarId> = self.lw.object(o).cells.iter().map(|(_, v)| *v).collect();
                for (v, i) in cells.into_iter().zip(inits) {
                    self.emit(
                        EdgeKind::Declare {
                            var: v,
                            init: i.map(Rhs::Expr),
                        },
                        span,
                    );
                }
            }
        }
        self.object_alive(o, span);
    }

    /// A string literal: a read-only `char` array object (its cells are initialized with
    /// the globals).
    pub fn string_literal(&mut self, parts: &[String], span: Span) -> Option<ObjId> {
        let bytes = match crate::frontend::init::string_bytes(parts) {
            Ok(b) => b,
            Err(e) => {
                self.error(span, e);
                return None;
            }
        };
        let text: String = parts.concat();
        let label = crate::text::clip_to(text, 24);
        let ty = CType::Array(
            Box::new(CType::Int(IntType::CHAR)),
            Some(bytes.len() as u64),
        );
        let o = self.lw.new_object(
            &label,
            &format!("string#{}", self.lw.objects.len()),
            ObjectKind::Literal,
            ty,
            None,
            true,
            span,
        )?;
        let cells: Vec<VarId> = self.lw.object(o).cells.iter().map(|(_, v)| *v).collect();
        for (v, b) in cells.into_iter().zip(bytes) {
            let value = Expr::constant(IntType::CHAR, IntType::CHAR.wrap(i128::from(b)));
            self.lw.global_inits.push((v, Some(Rhs::Expr(value)), span));
        }
        Some(o)
    }
}
