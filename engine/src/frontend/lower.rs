//! Program-level lowering: global declarations, function signatures, and one
//! [`FnBuilder`](crate::frontend::stmt::FnBuilder) per function definition.

use crate::cfa::{self, Cfa, Rhs};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::frontend::scope::{Binding, Lowerer, Signature};
use crate::frontend::stmt::FnBuilder;
use crate::frontend::types::{
    apply_declarator, declarator_name, resolve_specifiers, CType, FunctionType,
};
use crate::frontend::Parsed;
use crate::ir::{Expr, FuncId, IntType, Variable};
use lang_c::ast::{
    Declaration, EnumType, ExternalDeclaration, FunctionDefinition, Initializer, TranslationUnit,
};
use std::collections::BTreeMap;

impl Lowerer<'_> {
    /// Resolves specifiers, registering the constants of enum definitions.
    pub fn specifiers(
        &mut self,
        specs: &[lang_c::span::Node<lang_c::ast::DeclarationSpecifier>],
    ) -> (CType, crate::frontend::types::Storage) {
        let mut enums: Vec<EnumType> = Vec::new();
        let r = resolve_specifiers(specs, self, &mut |e| enums.push(e.clone()));
        for e in enums {
            self.register_enum(&e, None);
        }
        r
    }

    pub fn declarator_type(&mut self, base: CType, d: &lang_c::ast::Declarator) -> CType {
        let mut enums: Vec<EnumType> = Vec::new();
        let t = apply_declarator(base, d, self, &mut |e| enums.push(e.clone()));
        for e in enums {
            self.register_enum(&e, None);
        }
        t
    }

    /// Defines the enumerators of `e` in the global scope, or in `scope` when given.
    pub fn register_enum(
        &mut self,
        e: &EnumType,
        mut scope: Option<&mut BTreeMap<String, Binding>>,
    ) {
        let mut next: i128 = 0;
        for en in &e.enumerators {
            let value = match &en.node.expression {
                Some(ex) => {
                    let snapshot = scope.as_deref().cloned();
                    match self.const_expr(ex, snapshot.as_ref()) {
                        Some((v, _)) => v,
                        None => next,
                    }
                }
                None => next,
            };
            if !IntType::INT.contains(value) {
                let sp = self.span(en.span);
                self.error(sp, "enumerator value does not fit in int");
            }
            let b = Binding::Const(IntType::INT.wrap(value), IntType::INT);
            let name = en.node.identifier.node.name.clone();
            match scope.as_deref_mut() {
                Some(s) => {
                    s.insert(name, b);
                }
                None => {
                    self.globals.insert(name, b);
                }
            }
            next = value + 1;
        }
    }

    /// Evaluates an integer constant expression (C11 6.6) with `extra` bindings visible.
    pub fn const_expr(
        &mut self,
        e: &lang_c::span::Node<lang_c::ast::Expression>,
        extra: Option<&BTreeMap<String, Binding>>,
    ) -> Option<(i128, IntType)> {
        let mut b = FnBuilder::constant_context(self, extra.cloned());
        let ex = b.rvalue(e)?;
        let sp = b.span(e.span);
        b.fold_constant(&ex, sp)
    }

    fn global_declaration(&mut self, decl: &lang_c::span::Node<Declaration>) {
        let (base, storage) = self.specifiers(&decl.node.specifiers);
        for d in &decl.node.declarators {
            let Some(name_node) = declarator_name(&d.node.declarator.node) else {
                continue;
            };
            let name = name_node.node.name.clone();
            let ty = self.declarator_type(base.clone(), &d.node.declarator.node);
            let span = self.span(d.span);
            if storage.typedef {
                self.typedefs.insert(name, ty);
                continue;
            }
            match ty {
                CType::Function(f) => {
                    self.sigs
                        .entry(name.clone())
                        .or_insert(Signature { ty: *f, def: None });
                    self.globals
                        .entry(name.clone())
                        .or_insert(Binding::Function);
                }
                CType::Void => self.error(span, format!("variable '{name}' declared void")),
                CType::Unsupported(what) => {
                    if d.node.initializer.is_some() {
                        self.error(
                            span,
                            format!("{what} are not supported (variable '{name}')"),
                        );
                    }
                    self.globals.insert(name, Binding::Unsupported(what));
                }
                CType::Int(t) => self.global_variable(name, t, storage.is_extern, d, span),
            }
        }
    }

    fn global_variable(
        &mut self,
        name: String,
        t: IntType,
        is_extern: bool,
        d: &lang_c::span::Node<lang_c::ast::InitDeclarator>,
        span: Span,
    ) {
        let existing = match self.globals.get(&name) {
            Some(Binding::Var(v)) => Some(*v),
            _ => None,
        };
        let init = match &d.node.initializer {
            Some(init) => match &init.node {
                Initializer::Expression(e) => self
                    .const_expr(e, None)
                    .map(|(v, _)| Rhs::Expr(Expr::constant(t, v))),
                Initializer::List(_) => {
                    self.error(span, "initializer lists are not supported");
                    None
                }
            },
            None if is_extern => None,
            // Objects with static storage duration are initialised to 0 (C11 6.7.9p10).
            None => Some(Rhs::Expr(Expr::constant(t, 0))),
        };
        match existing {
            Some(v) => {
                // A repeated (tentative or extern) declaration: an explicit initializer wins.
                if d.node.initializer.is_some() || !is_extern {
                    if let Some(slot) = self.global_inits.iter_mut().find(|g| g.0 == v) {
                        if d.node.initializer.is_some() || slot.1.is_none() {
                            slot.1 = init;
                            slot.2 = span;
                        }
                    }
                }
            }
            None => {
                let v = self.new_var(Variable {
                    qualified: name.clone(),
                    name: name.clone(),
                    ty: t,
                    function: None,
                    synthetic: false,
                });
                self.globals.insert(name, Binding::Var(v));
                self.global_inits.push((v, init, span));
            }
        }
    }
}

/// Lowers a parsed translation unit into a CFA.
pub(crate) fn lower(
    file: &str,
    unit: &TranslationUnit,
    map: &SourceMap,
) -> Result<Parsed, Vec<Diagnostic>> {
    let mut lw = Lowerer {
        map,
        errors: Vec::new(),
        warnings: Vec::new(),
        vars: Vec::new(),
        nodes: Vec::new(),
        edges: Vec::new(),
        functions: Vec::new(),
        branchings: Vec::new(),
        typedefs: BTreeMap::new(),
        globals: BTreeMap::new(),
        sigs: BTreeMap::new(),
        global_inits: Vec::new(),
    };
    // Pass 1: globals, typedefs, signatures; function definitions get their ids.
    let mut defs: Vec<(
        FuncId,
        &lang_c::span::Node<FunctionDefinition>,
        FunctionType,
    )> = Vec::new();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => lw.global_declaration(d),
            ExternalDeclaration::StaticAssert(s) => {
                let sp = lw.span(s.span);
                lw.warn(sp, "_Static_assert is ignored");
            }
            ExternalDeclaration::FunctionDefinition(fd) => {
                let (base, _) = lw.specifiers(&fd.node.specifiers);
                let Some(name_node) = declarator_name(&fd.node.declarator.node) else {
                    continue;
                };
                let name = name_node.node.name.clone();
                let span = lw.span(fd.span);
                let ty = lw.declarator_type(base, &fd.node.declarator.node);
                let CType::Function(fty) = ty else {
                    lw.error(span, format!("'{name}' is not a function"));
                    continue;
                };
                if !fd.node.declarations.is_empty() {
                    lw.error(span, "K&R-style function definitions are not supported");
                    continue;
                }
                if name == "reach_error" {
                    // Every call of reach_error() is the error location; its body is not used.
                    lw.sigs.insert(
                        name.clone(),
                        Signature {
                            ty: *fty,
                            def: None,
                        },
                    );
                    lw.globals.insert(name.clone(), Binding::Function);
                    continue;
                }
                if lw.sigs.get(&name).is_some_and(|s| s.def.is_some()) {
                    lw.error(span, format!("redefinition of function '{name}'"));
                    continue;
                }
                let id = FuncId(defs.len() as u32);
                lw.sigs.insert(
                    name.clone(),
                    Signature {
                        ty: (*fty).clone(),
                        def: Some(id),
                    },
                );
                lw.globals.insert(name.clone(), Binding::Function);
                defs.push((id, fd, *fty));
            }
        }
    }
    let Some(main_id) = lw.sigs.get("main").and_then(|s| s.def) else {
        let mut errs = lw.errors;
        errs.push(Diagnostic::error(
            Span::point(1, 1),
            "the program has no function 'main'",
        ));
        return Err(errs);
    };
    // Pass 2: function skeletons (entry, exit, parameters), so calls can refer to them.
    for (id, fd, fty) in &defs {
        let name = declarator_name(&fd.node.declarator.node)
            .map(|n| n.node.name.clone())
            .unwrap_or_default();
        let span = lw.span(fd.span);
        FnBuilder::declare_function(&mut lw, *id, name, fty, span);
    }
    // Pass 3: bodies.
    for (id, fd, fty) in &defs {
        FnBuilder::build_body(&mut lw, *id, fd, fty, *id == main_id);
    }
    if !lw.errors.is_empty() {
        return Err(lw.errors);
    }
    let cfa = Cfa {
        file: file.to_string(),
        functions: lw.functions,
        nodes: lw.nodes,
        edges: lw.edges,
        vars: lw.vars,
        main: main_id,
        branchings: lw.branchings,
        overflow_checked: false,
    };
    Ok(Parsed {
        cfa: cfa::finish(cfa),
        warnings: lw.warnings,
    })
}
