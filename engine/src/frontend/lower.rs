//! Program-level lowering: global declarations, function signatures, and one
//! [`FnBuilder`](crate::frontend::builder::FnBuilder) per function definition.

use crate::cfa::{self, Cfa, EdgeKind, MemObject, NodeKind, Rhs};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::frontend::builder::FnBuilder;
use crate::frontend::builtins::Spec;
use crate::frontend::escape::{self, Escapes};
use crate::frontend::layout::{Record, Records};
use crate::frontend::objects::ObjectKind;
use crate::frontend::scope::{Binding, Lowerer, Signature};

use crate::frontend::types::{
    apply_declarator, declarator_name, resolve_specifier_qualifiers, resolve_specifiers, CType,
    FunctionType, RecordId, TypeEnv,
};
use crate::frontend::Parsed;
use crate::ir::{FuncId, IntType, Variable};
use lang_c::ast::{
    Declaration, EnumType, Expression, ExternalDeclaration, FunctionDefinition, StructDeclaration,
    StructKind, StructType, TranslationUnit,
};
use lang_c::span::Node;
use std::collections::BTreeMap;

impl TypeEnv for Lowerer<'_> {
    fn typedef(&self, name: &str) -> Option<CType> {
        self.typedefs.get(name).cloned()
    }

    fn record(&mut self, s: &Node<StructType>) -> CType {
        let union = s.node.kind.node == StructKind::Union;
        let tag = s.node.identifier.as_ref().map(|i| i.node.name.clone());
        let existing = tag.as_ref().and_then(|t| self.tags.get(t).copied());
        let id = match existing {
            // A new definition of a tag that is already defined makes a new record (a
            // nested scope's redefinition); a reference or the definition of a declared
            // tag uses the one there is.
            Some(id) if !(s.node.declarations.is_some() && self.records.get(id).complete) => id,
            _ => {
                let id = RecordId(self.records.all.len() as u32);
                self.records.all.push(Record {
                    tag: tag.clone(),
                    union,
                    fields: Vec::new(),
                    complete: false,
                    size: 0,
                    align: 1,
                    unsupported: None,
                });
                if let Some(t) = tag {
                    self.tags.insert(t, id);
                }
                id
            }
        };
        if self.records.get(id).union != union {
            return CType::Unsupported(format!(
                "'{}' used both as a struct and a union",
                self.records.get(id).describe()
            ));
        }
        let Some(decls) = &s.node.declarations else {
            return match &self.records.get(id).unsupported {
                Some(why) => CType::Unsupported(why.clone()),
                None => CType::Record(id),
            };
        };
        match self.define_record(id, union, decls) {
            Ok(()) => CType::Record(id),
            Err(why) => {
                self.records.all[id.0 as usize].unsupported = Some(why.clone());
                CType::Unsupported(why)
            }
        }
    }

    fn enumeration(&mut self, e: &EnumType) {
        self.register_enum(e, None);
    }

    fn array_size(&mut self, e: &Node<Expression>) -> Result<u64, String> {
        // A size that is not a constant (a local's value) makes a variable-length array:
        // that is the diagnostic, not what the attempt to fold it reported.
        let errors = self.errors.len();
        let size = self.const_expr(e, None);
        if size.is_none() {
            self.errors.truncate(errors);
        }
        match size {
            Some((v, _)) if v >= 0 => Ok(v as u64),
            Some((v, _)) => Err(format!("arrays of negative size ({v})")),
            None => Err("variable-length arrays".into()),
        }
    }
}

impl Lowerer<'_> {
    /// Defines the members of record `id` (`Err`: why it is outside the subset).
    fn define_record(
        &mut self,
        id: RecordId,
        union: bool,
        decls: &[lang_c::span::Node<StructDeclaration>],
    ) -> Result<(), String> {
        let mut fields = Vec::new();
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let base = resolve_specifier_qualifiers(&f.node.specifiers, self);
            if f.node.declarators.is_empty() {
                // An anonymous struct or union member.
                fields.push((None, base));
                continue;
            }
            for sd in &f.node.declarators {
                if sd.node.bit_width.is_some() {
                    return Err("bit-fields".into());
                }
                let (name, ty) = match &sd.node.declarator {
                    Some(dd) => (
                        declarator_name(&dd.node).map(|n| n.node.name.clone()),
                        apply_declarator(base.clone(), &dd.node, self),
                    ),
                    None => (None, base.clone()),
                };
                if let CType::Unsupported(what) = ty {
                    return Err(format!("{what} (in {})", self.records.get(id).describe()));
                }
                fields.push((name, ty));
            }
        }
        self.records.define(id, fields)?;
        if union && !self.records.union_consistent(id) {
            return Err(format!(
                "unions whose members have different layouts ({})",
                self.records.get(id).describe()
            ));
        }
        Ok(())
    }

    /// Resolves specifiers, registering enum constants and struct definitions.
    pub fn specifiers(
        &mut self,
        specs: &[lang_c::span::Node<lang_c::ast::DeclarationSpecifier>],
    ) -> (CType, crate::frontend::types::Storage) {
        resolve_specifiers(specs, self)
    }

    pub fn declarator_type(&mut self, base: CType, d: &lang_c::ast::Declarator) -> CType {
        apply_declarator(base, d, self)
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
                ty if ty.is_scalar() && !self.global_escapes.scalar_in_memory(&name) => {
                    self.global_variable(name, ty, storage.is_extern, d, span)
                }
                ty => self.global_object(name, ty, storage.is_extern, d, span),
            }
        }
    }

    /// The constant values of a global initializer, by cell offset (address constants
    /// allowed).
    fn global_init(
        &mut self,
        ty: &CType,
        init: &lang_c::span::Node<lang_c::ast::Initializer>,
        span: Span,
    ) -> Option<crate::frontend::init::CellValues> {
        let mut b = FnBuilder::constant_context(self, None);
        let vals = match b.init_values(ty, init, span)? {
            Ok(v) => v,
            Err(_) => {
                b.error(
                    span,
                    "a global struct must be initialized by a list of constants",
                );
                return None;
            }
        };
        let mut out = crate::frontend::init::CellValues::new();
        for (off, e) in vals {
            let (c, t) = b.fold_constant(&e, span)?;
            out.insert(off, crate::ir::Expr::constant(t, c));
        }
        Some(out)
    }

    fn global_variable(
        &mut self,
        name: String,
        ty: CType,
        is_extern: bool,
        d: &lang_c::span::Node<lang_c::ast::InitDeclarator>,
        span: Span,
    ) {
        let t = ty.scalar().unwrap_or(IntType::INT);
        let existing = match self.globals.get(&name) {
            Some(Binding::Var(v, _)) => Some(*v),
            _ => None,
        };
        let init = match &d.node.initializer {
            Some(init) => self.global_init(&ty, init, span).map(|mut vals| {
                Rhs::Expr(
                    vals.remove(&0)
                        .unwrap_or_else(|| crate::ir::Expr::constant(t, 0))
                        .convert(t),
                )
            }),
            None if is_extern => None,
            // Objects with static storage duration are initialised to 0 (C11 6.7.9p10).
            None => Some(Rhs::Expr(crate::ir::Expr::constant(t, 0))),
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
                    pointer: ty.is_pointer(),
                });
                self.globals.insert(name, Binding::Var(v, ty));
                self.global_inits.push((v, init, span));
            }
        }
    }

    /// A global array, struct or union, or a global scalar whose address is taken.
    fn global_object(
        &mut self,
        name: String,
        ty: CType,
        is_extern: bool,
        d: &lang_c::span::Node<lang_c::ast::InitDeclarator>,
        span: Span,
    ) {
        let init = d.node.initializer.as_ref();
        let ty = {
            let mut b = FnBuilder::constant_context(self, None);
            b.complete_type(ty, init)
        };
        let existing = match self.globals.get(&name) {
            Some(Binding::Object(o)) => Some(*o),
            _ => None,
        };
        if existing.is_some() && init.is_none() {
            return;
        }
        if existing.is_some() {
            self.error(
                span,
                format!("'{name}' is initialized after its first declaration (not supported)"),
            );
            return;
        }
        let escaped = match &ty {
            CType::Array(..) => self.global_escapes.array_escapes(&name),
            CType::Record(_) => self.global_escapes.record_escapes(&name),
            _ => true,
        };
        let vals = match init {
            Some(i) => self.global_init(&ty, i, span),
            None => Some(crate::frontend::init::CellValues::new()),
        };
        let Some(o) = self.new_object(
            &name,
            &name,
            ObjectKind::Global,
            ty.clone(),
            None,
            escaped,
            span,
        ) else {
            return;
        };
        self.globals.insert(name, Binding::Object(o));
        let cells = self.object(o).cells.clone();
        for (c, v) in cells {
            let value = vals
                .as_ref()
                .and_then(|m| m.get(&c.offset).cloned())
                .unwrap_or_else(|| crate::ir::Expr::constant(c.ty, 0))
                .convert(c.ty);
            let value = if is_extern && init.is_none() {
                None
            } else {
                Some(Rhs::Expr(value))
            };
            self.global_inits.push((v, value, span));
        }
    }

    /// The global initializations at the start of `main`, before its first edge.
    fn place_global_inits(&mut self) {
        let Some((entry, dummy)) = self.main_start else {
            return;
        };
        if self.global_inits.is_empty() {
            return;
        }
        let main = self.nodes[entry.0 as usize].function;
        let span = Span::point(self.nodes[entry.0 as usize].line.max(1), 1);
        let mut cur = self.new_node(main, 0, NodeKind::Normal);
        self.add_edge(entry, cur, EdgeKind::Blank("INIT GLOBAL VARS".into()), span);
        for (v, init, sp) in std::mem::take(&mut self.global_inits) {
            let next = self.new_node(main, 0, NodeKind::Normal);
            self.add_edge(cur, next, EdgeKind::Declare { var: v, init }, sp);
            cur = next;
        }
        self.edges[dummy.0 as usize].from = cur;
    }
}

/// The names whose addresses escape, for the globals (in every function and initializer)
/// and for each function's locals.
fn escapes_of(unit: &TranslationUnit) -> (Escapes, BTreeMap<String, Escapes>) {
    let mut global = Escapes::default();
    let mut per = BTreeMap::new();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => escape::of_declaration(d, &mut global),
            ExternalDeclaration::FunctionDefinition(fd) => {
                let mut e = Escapes::default();
                escape::of_statement(&fd.node.statement, &mut e);
                global.addressed.extend(e.addressed.iter().cloned());
                global.bare.extend(e.bare.iter().cloned());
                if let Some(n) = declarator_name(&fd.node.declarator.node) {
                    per.insert(n.node.name.clone(), e);
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    (global, per)
}

/// Lowers a parsed translation unit into a CFA.
pub(crate) fn lower(
    file: &str,
    unit: &TranslationUnit,
    map: &SourceMap,
    text: &str,
    spec: Spec,
) -> Result<Parsed, Vec<Diagnostic>> {
    let (global_escapes, escapes) = escapes_of(unit);
    let mut lw = Lowerer {
        map,
        spec,
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
        text,
        records: Records::default(),
        tags: BTreeMap::new(),
        objects: Vec::new(),
        pending: Vec::new(),
        ub_nodes: BTreeMap::new(),
        pointer_vars: Default::default(),
        memory_vars: Default::default(),
        global_escapes,
        escapes,
        frame_objects: BTreeMap::new(),
        main_start: None,
        param_objects: BTreeMap::new(),
        ret_objects: BTreeMap::new(),
        external_warned: Default::default(),
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
                if name == "reach_error" && spec != Spec::UnreachLabel {
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
    lw.place_global_inits();
    lw.lower_pending();
    if !lw.errors.is_empty() {
        return Err(lw.errors);
    }
    for v in std::mem::take(&mut lw.pointer_vars) {
        lw.vars[v.0 as usize].pointer = true;
    }
    let objects = lw
        .objects
        .iter()
        .map(|o| MemObject {
            name: o.name.clone(),
            base: o.base,
            size: o.size,
            cells: o.cells.iter().map(|(c, v)| (c.offset, *v)).collect(),
            heap: matches!(o.kind, ObjectKind::Heap { .. }),
        })
        .collect();
    let cfa = Cfa {
        file: file.to_string(),
        functions: lw.functions,
        nodes: lw.nodes,
        edges: lw.edges,
        vars: lw.vars,
        main: main_id,
        branchings: lw.branchings,
        overflow_checked: false,
        objects,
    };
    Ok(Parsed {
        cfa: cfa::finish(cfa),
        warnings: lw.warnings,
    })
}
