//! A function's CFA: its skeleton (entry, exit, parameters, the objects of struct
//! parameters and results) and its body, with the lifetimes of the locals in memory.

use crate::cfa::{EdgeKind, Function, NodeKind, Rhs, Ub};
use crate::diag::Span;
use crate::frontend::builder::FnBuilder;
use crate::frontend::objects::ObjectKind;

use crate::frontend::scope::{Binding, Lowerer};
use crate::frontend::types::{CType, FunctionType};
use crate::ir::{BinOp, Expr, ExprKind, FuncId, IntType, VarId, Variable};
use lang_c::ast::FunctionDefinition;
use lang_c::span::Node as AstNode;
use std::collections::BTreeMap;

impl<'l, 'a> FnBuilder<'l, 'a> {
    /// Creates entry and exit locations, parameters and the return variable of a function. A
    /// struct parameter is an object whose cells are parameters; a struct result goes through
    /// return cells (a global object per function).
    pub fn declare_function(
        lw: &mut Lowerer<'_>,
        id: FuncId,
        name: String,
        fty: &FunctionType,
        span: Span,
    ) {
        let entry = lw.new_node(id, span.start_line, NodeKind::FunctionEntry);
        let exit = lw.new_node(id, span.end_line, NodeKind::FunctionExit);
        let mut params = Vec::new();
        let escapes = lw.escapes.get(&name).cloned().unwrap_or_default();
        for (i, p) in fty.params.iter().enumerate() {
            let pname = p.name.clone().unwrap_or_else(|| format!("__param{i}"));
            if let CType::Record(_) = &p.ty {
                let escaped = escapes.record_escapes(&pname);
                let sp = lw.span(p.span);
                if let Some(o) = lw.new_object(
                    &pname,
                    &format!("{name}::{pname}"),
                    ObjectKind::Local(id),
                    p.ty.clone(),
                    Some(id),
                    escaped,
                    sp,
                ) {
                    params.extend(lw.object(o).cells.iter().map(|(_, v)| *v));
                    lw.param_objects.insert((id, i), o);
                    if lw.object(o).alive.is_some() {
                        lw.frame_objects.entry(id).or_default().push(o);
                    }
                }
                continue;
            }
            let ty = p.ty.scalar().unwrap_or(IntType::INT); // unusable: bound as unsupported
            let v = lw.new_var(Variable {
                qualified: format!("{name}::{pname}"),
                name: pname,
                ty,
                function: Some(id),
                synthetic: p.name.is_none(),
                pointer: p.ty.is_pointer(),
            });
            params.push(v);
        }
        let ret = match &fty.ret {
            t if t.is_scalar() => {
                let t = t.scalar().unwrap_or(IntType::INT);
                Some((
                    t,
                    lw.new_var(Variable {
                        qualified: format!("{name}::__retval__"),
                        name: format!("{name}::__retval__"),
                        ty: t,
                        function: Some(id),
                        synthetic: true,
                        pointer: fty.ret.is_pointer(),
                    }),
                ))
            }
            CType::Record(_) => {
                let label = format!("{name}::__retval__");
                if let Some(o) = lw.new_object(
                    &label,
                    &label,
                    ObjectKind::Global,
                    fty.ret.clone(),
                    None,
                    false,
                    span,
                ) {
                    lw.ret_objects.insert(id, o);
                }
                None
            }
            _ => None,
        };
        if let CType::Unsupported(what) = &fty.ret {
            lw.error(
                span,
                format!("{what} are not supported (return type of '{name}')"),
            );
        }
        debug_assert_eq!(lw.functions.len(), id.0 as usize);
        lw.functions.push(Function {
            id,
            name,
            entry,
            exit,
            params,
            ret,
            span,
        });
    }

    pub fn build_body(
        lw: &'l mut Lowerer<'a>,
        id: FuncId,
        fd: &AstNode<FunctionDefinition>,
        fty: &FunctionType,
        is_main: bool,
    ) {
        let f = lw.functions[id.0 as usize].clone();
        let mut b = FnBuilder {
            lw,
            func: Some(id),
            fname: f.name.clone(),
            cur: f.entry,
            scopes: vec![BTreeMap::new()],
            name_counts: BTreeMap::new(),
            labels: BTreeMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            exit: f.exit,
            error_node: None,
            term_node: None,
            tmp_count: 0,
            stmt_text: None,
        };
        let escapes = b.lw.escapes.get(&f.name).cloned().unwrap_or_default();
        // Parameters: variables, or objects (struct parameters, and scalars whose address is
        // taken: copied into their object when the body starts).
        let mut k = 0;
        let mut copies: Vec<(String, CType, VarId, Span)> = Vec::new();
        for (i, p) in fty.params.iter().enumerate() {
            let binding = match &p.ty {
                CType::Record(_) => match b.lw.param_objects.get(&(id, i)).copied() {
                    Some(o) => {
                        k += b.lw.object(o).cells.len();
                        Binding::Object(o)
                    }
                    None => continue,
                },
                t if t.is_scalar() => {
                    let Some(v) = f.params.get(k).copied() else {
                        continue;
                    };
                    k += 1;
                    match &p.name {
                        Some(n) if escapes.scalar_in_memory(n) => {
                            copies.push((n.clone(), t.clone(), v, b.lw.span(p.span)));
                            continue;
                        }
                        _ => Binding::Var(v, t.clone()),
                    }
                }
                other => {
                    k += 1;
                    Binding::Unsupported(other.describe())
                }
            };
            if let Some(n) = &p.name {
                b.scopes[0].insert(n.clone(), binding);
                b.name_counts.insert(n.clone(), 1);
            }
        }
        let body_span = b.span(fd.node.statement.span);
        let start = b.new_node();
        let dummy = b.lw.add_edge(
            f.entry,
            start,
            EdgeKind::Blank("Function start dummy edge".into()),
            Span::point(body_span.start_line, body_span.start_col),
        );
        if is_main {
            // The global initializations go before it once every global is known.
            b.lw.main_start = Some((f.entry, dummy));
        }
        b.cur = start;
        // Escaped struct parameters come alive.
        let params_alive: Vec<VarId> =
            b.lw.param_objects
                .iter()
                .filter(|((g, _), _)| *g == id)
                .filter_map(|(_, o)| b.lw.object(*o).alive)
                .collect();
        for a in params_alive {
            b.emit(
                EdgeKind::Assign {
                    lhs: a,
                    rhs: Rhs::Expr(Expr::constant(IntType::BOOL, 1)),
                },
                f.span,
            );
        }
        for (name, ty, v, span) in copies {
            let init = Expr::var(v, ty.scalar().unwrap_or(IntType::INT));
            if let Some(o) = b.declare_object(&name, ty, false, span) {
                let cell = b.lw.object(o).cells[0].1;
                b.emit(
                    EdgeKind::Declare {
                        var: cell,
                        init: Some(Rhs::Expr(init)),
                    },
                    span,
                );
                b.object_alive(o, span);
            }
        }
        b.stmt(&fd.node.statement);
        let end = Span::point(
            body_span.end_line,
            body_span.end_col.saturating_sub(1).max(1),
        );
        let exit = b.exit;
        b.edge_to(exit, EdgeKind::Blank("default return".into()), end);
        for (name, l) in std::mem::take(&mut b.labels) {
            if !l.defined {
                b.lw.error(l.first_use, format!("use of undeclared label '{name}'"));
            }
        }
        if !is_main {
            b.frame_lifetimes(dummy, f.span);
        }
    }

    /// The lifetimes of a function's locals in memory: at its entry none of them may be
    /// alive (else the function runs again while an earlier activation's object is in use:
    /// recursion, which one object per local cannot follow), at its exit they all die.
    pub(crate) fn frame_lifetimes(&mut self, dummy: crate::cfa::EdgeId, span: Span) {
        let Some(func) = self.func else { return };
        let alive: Vec<VarId> = self
            .lw
            .frame_objects
            .get(&func)
            .map(|os| os.iter().filter_map(|o| self.lw.object(*o).alive).collect())
            .unwrap_or_default();
        if alive.is_empty() {
            return;
        }
        let entry = self.lw.edges[dummy.0 as usize].from;
        let any = alive
            .iter()
            .map(|a| Expr::var(*a, IntType::BOOL))
            .reduce(|x, y| Expr {
                ty: IntType::INT,
                kind: ExprKind::Binary(BinOp::LogOr, Box::new(x), Box::new(y)),
            })
            .unwrap_or_else(|| Expr::constant(IntType::INT, 0));
        let ok = self.new_node();
        let bad = self.lw.ub_node(func, Ub::Reused);
        self.lw.add_edge(
            entry,
            ok,
            EdgeKind::Assume {
                cond: any.clone(),
                truth: false,
            },
            span,
        );
        self.lw.add_edge(
            entry,
            bad,
            EdgeKind::Assume {
                cond: any,
                truth: true,
            },
            span,
        );
        self.lw.edges[dummy.0 as usize].from = ok;
        // Every way out of the function goes through the clean-up first.
        let exit = self.exit;
        let cleanup = self.new_node();
        for e in self.lw.edges.iter_mut() {
            if e.to == exit && self.lw.nodes[e.from.0 as usize].function == func {
                e.to = cleanup;
            }
        }
        self.cur = cleanup;
        let last = alive.len() - 1;
        for (i, a) in alive.into_iter().enumerate() {
            let next = if i == last { exit } else { self.new_node() };
            self.edge_to(
                next,
                EdgeKind::Assign {
                    lhs: a,
                    rhs: Rhs::Expr(Expr::constant(IntType::BOOL, 0)),
                },
                span,
            );
            self.cur = next;
        }
    }
}
