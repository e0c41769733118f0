//! The memory model of the front end: C memory compiled into scalar program variables, so
//! that every analysis runs on a memory-free CFA with its exact semantics.
//!
//! **Objects.** Every variable that lives in memory (an array, a struct or union, a scalar
//! whose address is taken), every string literal and every allocation site is an *object*
//! with a fixed address (object k at `(k + 1) · 2^20`, so that no pointer computed from one
//! object by less than a mebibyte out of its bounds lands in another) and a layout of
//! *cells*: its scalars ([`crate::frontend::layout`]), each one program variable named like
//! the C lvalue (`a[2]`, `p.x`). A pointer is a 32-bit unsigned integer holding an address;
//! null is 0. Pointer arithmetic is integer arithmetic on addresses.
//!
//! **Accesses.** An access whose address is a constant (`a[2]`, `s.x`, `(&s)->x`) is the
//! cell's variable. An access at a dynamic address reads the cell whose address equals it
//! among the *candidates* (the cells of the object the pointer must point into when that is
//! known, `a[i]`; otherwise the cells of every object whose address escapes), as an `ite`
//! over the candidates' addresses, and a write assigns each candidate `c := (addr == &c) ?
//! v : c`. Both are preceded by a validity check: the address is a candidate's address (and
//! that object is alive); otherwise the path goes to a location of kind
//! [`NodeKind::Undefined`], a target whose reachability ends the run with UNKNOWN naming the
//! line (null, dangling and out-of-bounds accesses are undefined behaviour). The model is
//! exact wherever the check passes; a target missing from a candidate set can only make a
//! run end UNKNOWN, never give a wrong verdict.
//!
//! **Lifetimes.** Escaped locals and heap objects have an `alive` variable: set by the
//! declaration or the allocation, cleared at the function's exit or by `free`. An allocation
//! site, or a function with escaped locals, runs again while its object is alive (a loop
//! allocating without freeing, recursion) only on paths to an [`Ub::Reused`] target: one
//! object per site and per local is modelled.
//!
//! This follows the per-object variables with a points-to split of the design
//! (typed memory regions as program variables, as CPAchecker's value analysis keeps memory
//! locations as variables), here with escape as the points-to approximation.

use crate::cfa::{EdgeKind, NodeId, NodeKind, Rhs, Ub};
use crate::diag::Span;
use crate::frontend::objects::{
    address, and, any_of, at_address, eq, ite, linear, or, Linear, MemOp, ObjId, Object,
    ObjectKind, Pending, MAX_CANDIDATES, MAX_OBJECTS, MAX_OBJECT_BYTES, OBJECT_SPACING,
};
use crate::frontend::points_to::PointsTo;
use crate::frontend::scope::Lowerer;
use crate::frontend::types::{CType, RecordId};
use crate::ir::{Expr, FuncId, IntType, VarId, Variable};

impl Lowerer<'_> {
    /// Creates an object of type `ty` with its cell variables (`function` is the function
    /// whose locals they are, `None` for globals and heap objects).
    #[allow(clippy::too_many_arguments)]
    pub fn new_object(
        &mut self,
        name: &str,
        qualified: &str,
        kind: ObjectKind,
        ty: CType,
        function: Option<FuncId>,
        escaped: bool,
        span: Span,
    ) -> Option<ObjId> {
        let Some(size) = self.records.size_of(&ty) else {
            self.error(
                span,
                format!("'{name}' has an incomplete type ({})", ty.describe()),
            );
            return None;
        };
        let Some(cells) = self.records.cells(&ty) else {
            self.error(
                span,
                format!(
                    "'{name}' has more than {} scalar cells ({}): objects this large are not supported",
                    crate::frontend::layout::MAX_CELLS,
                    ty.describe()
                ),
            );
            return None;
        };
        if size > MAX_OBJECT_BYTES {
            self.error(
                span,
                format!(
                    "'{name}' has {size} bytes ({}): objects larger than {MAX_OBJECT_BYTES} bytes are not supported",
                    ty.describe()
                ),
            );
            return None;
        }
        if self.objects.len() >= MAX_OBJECTS {
            self.error(span, format!("more than {MAX_OBJECTS} objects in memory"));
            return None;
        }
        let id = ObjId(self.objects.len() as u32);
        let base = (u64::from(id.0) + 1) * OBJECT_SPACING;
        let mut vars = Vec::with_capacity(cells.len());
        for c in cells {
            let v = self.new_var(Variable {
                qualified: format!("{qualified}{}", c.path),
                name: format!("{name}{}", c.path),
                ty: c.ty,
                function,
                synthetic: false,
                pointer: c.pointer,
            });
            if c.pointer {
                self.pointer_vars.insert(v);
            }
            self.memory_vars.insert(v);
            vars.push((c, v));
        }
        // main runs once (it cannot be called): its locals live as long as the program.
        let of_main = matches!(kind, ObjectKind::Local(f)
            if self.functions.get(f.0 as usize).is_some_and(|func| func.name == "main"));
        let needs_alive =
            escaped && !of_main && matches!(kind, ObjectKind::Local(_) | ObjectKind::Heap { .. });
        let alive = needs_alive.then(|| {
            self.new_var(Variable {
                qualified: format!("{qualified}#alive"),
                name: format!("{name}#alive"),
                ty: IntType::BOOL,
                function: None,
                synthetic: true,
                pointer: false,
            })
        });
        if let Some(a) = alive {
            self.memory_vars.insert(a);
            // Not alive before the program starts (set among the globals' initializers).
            let zero = Expr::constant(IntType::BOOL, 0);
            self.global_inits.push((a, Some(Rhs::Expr(zero)), span));
        }
        let readonly = kind == ObjectKind::Literal;
        self.objects.push(Object {
            name: name.to_string(),
            kind,
            ty,
            base,
            size,
            cells: vars,
            alive,
            escaped,
            readonly,
        });
        Some(id)
    }

    pub fn object(&self, id: ObjId) -> &Object {
        &self.objects[id.0 as usize]
    }

    /// The cell of `obj` at `offset` with the access type's size, if there is one.
    pub fn cell_at(&self, obj: ObjId, offset: u64, ty: IntType) -> Option<(VarId, IntType)> {
        let size = crate::frontend::layout::int_size(ty);
        self.object(obj)
            .cells
            .iter()
            .find(|(c, _)| c.offset == offset && crate::frontend::layout::int_size(c.ty) == size)
            .map(|(c, v)| (*v, c.ty))
    }

    /// The cells an access of type `ty` at an unknown address may reach: those of the
    /// objects it may point into (writable ones for writes) of the access's size, and for a
    /// member reached through a pointer only that member of records of the pointer's type.
    fn candidates(
        &self,
        reached: Vec<ObjId>,
        ty: IntType,
        member: Option<(RecordId, u64)>,
        write: bool,
    ) -> Vec<(u64, VarId, IntType, Option<VarId>)> {
        let size = crate::frontend::layout::int_size(ty);
        let objs: Vec<&Object> = reached.into_iter().map(|o| self.object(o)).collect();
        let mut out = Vec::new();
        for o in objs {
            if write && o.readonly {
                continue;
            }
            for (c, v) in &o.cells {
                if member.is_some_and(|m| !c.records.contains(&m)) {
                    continue;
                }
                if crate::frontend::layout::int_size(c.ty) == size {
                    out.push((o.base + c.offset, *v, c.ty, o.alive));
                }
            }
        }
        out
    }

    /// The location of kind [`NodeKind::Undefined`] for `ub` in `function`.
    pub fn ub_node(&mut self, function: FuncId, ub: Ub) -> NodeId {
        if let Some(n) = self.ub_nodes.get(&(function, ub)) {
            return *n;
        }
        let n = self.new_node(function, 0, NodeKind::Undefined(ub));
        self.ub_nodes.insert((function, ub), n);
        n
    }

    /// Lowers every pending memory operation (once all objects are known), each with the
    /// candidates its address may point into.
    pub fn lower_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let pt = PointsTo::analyse(
            &self.vars,
            &self.edges,
            &self.functions,
            &self.objects,
            &pending,
            &self.pointer_vars,
        );
        for p in pending {
            self.lower_op(p, &pt);
        }
    }

    fn chain(&mut self, p: &Pending, from: NodeId, kinds: Vec<EdgeKind>) {
        let mut cur = from;
        let n = kinds.len();
        for (i, k) in kinds.into_iter().enumerate() {
            let next = if i + 1 == n {
                p.to
            } else {
                self.new_node(p.function, p.span.start_line, NodeKind::Normal)
            };
            let e = self.add_edge(cur, next, k, p.span);
            self.edges[e.0 as usize].text = Some(p.text.clone());
            cur = next;
        }
    }

    fn lower_op(&mut self, p: Pending, pt: &PointsTo) {
        match p.op.clone() {
            MemOp::Read {
                dst,
                addr,
                ty,
                obj,
                member,
            } => {
                let reached = pt.reached(&addr, obj, &self.objects);
                let cands = self.candidates(reached, ty, member, false);
                let form = linear(&addr);
                let Some(mid) = self.validity(&p, &addr, &form, &cands) else {
                    return;
                };
                let mut value: Option<Expr> = None;
                for (a, v, t, _) in cands.iter().rev() {
                    let (cond, key) = at_address(&addr, &form, *a);
                    if key == Some(None) {
                        continue;
                    }
                    let cell = Expr::var(*v, *t).convert(ty);
                    value = Some(match value {
                        None => cell,
                        Some(rest) => ite(cond, cell, rest),
                    });
                }
                let value = value.unwrap_or_else(|| Expr::constant(ty, 0));
                let dst_ty = self.vars[dst.0 as usize].ty;
                self.chain(
                    &p,
                    mid,
                    vec![EdgeKind::Assign {
                        lhs: dst,
                        rhs: Rhs::Expr(value.convert(dst_ty)),
                    }],
                );
            }
            MemOp::Write {
                addr,
                value,
                ty,
                obj,
                member,
            } => {
                let reached = pt.reached(&addr, obj, &self.objects);
                let cands = self.candidates(reached, ty, member, true);
                let form = linear(&addr);
                let Some(mid) = self.validity(&p, &addr, &form, &cands) else {
                    return;
                };
                let reachable: Vec<_> = cands
                    .iter()
                    .filter(|(a, ..)| at_address(&addr, &form, *a).1 != Some(None))
                    .collect();
                let kinds: Vec<EdgeKind> = if reachable.len() == 1 {
                    let (_, v, t, _) = *reachable[0];
                    vec![EdgeKind::Assign {
                        lhs: v,
                        rhs: Rhs::Expr(value.convert(t)),
                    }]
                } else {
                    reachable
                        .iter()
                        .map(|(a, v, t, _)| EdgeKind::Assign {
                            lhs: *v,
                            rhs: Rhs::Expr(ite(
                                at_address(&addr, &form, *a).0,
                                value.clone().convert(*t),
                                Expr::var(*v, *t),
                            )),
                        })
                        .collect()
                };
                self.chain(&p, mid, kinds);
            }
            MemOp::Free { ptr } => {
                // free(NULL) does nothing; otherwise `ptr` must be the start of a live heap
                // object, which dies.
                let heaps: Vec<(u64, VarId)> = self
                    .objects
                    .iter()
                    .filter(|o| matches!(o.kind, ObjectKind::Heap { stack: None, .. }))
                    .filter_map(|o| o.alive.map(|a| (o.base, a)))
                    .collect();
                let null = eq(ptr.clone(), address(0));
                let mut valid = null.clone();
                for (b, a) in &heaps {
                    valid = or(
                        valid,
                        and(eq(ptr.clone(), address(*b)), Expr::var(*a, IntType::BOOL)),
                    );
                }
                let bad = self.ub_node(p.function, Ub::InvalidFree);
                let ok = self.new_node(p.function, p.span.start_line, NodeKind::Normal);
                let e1 = self.add_edge(
                    p.from,
                    ok,
                    EdgeKind::Assume {
                        cond: valid.clone(),
                        truth: true,
                    },
                    p.span,
                );
                let e2 = self.add_edge(
                    p.from,
                    bad,
                    EdgeKind::Assume {
                        cond: valid,
                        truth: false,
                    },
                    p.span,
                );
                self.edges[e1.0 as usize].text = Some(p.text.clone());
                self.edges[e2.0 as usize].text = Some(p.text.clone());
                let mut kinds: Vec<EdgeKind> = heaps
                    .iter()
                    .map(|(b, a)| EdgeKind::Assign {
                        lhs: *a,
                        rhs: Rhs::Expr(ite(
                            eq(ptr.clone(), address(*b)),
                            Expr::constant(IntType::BOOL, 0),
                            Expr::var(*a, IntType::BOOL),
                        )),
                    })
                    .collect();
                if kinds.is_empty() {
                    kinds.push(EdgeKind::Blank("free".into()));
                }
                self.chain(&p, ok, kinds);
            }
        }
    }

    /// The check that `addr` is one of the candidates' addresses (of a live object): an
    /// assume to a fresh location, returned, and its negation to the undefined-behaviour
    /// location. `None` when no candidate exists (the access is always undefined).
    fn validity(
        &mut self,
        p: &Pending,
        addr: &Expr,
        form: &Option<Linear>,
        cands: &[(u64, VarId, IntType, Option<VarId>)],
    ) -> Option<NodeId> {
        let bad = self.ub_node(p.function, Ub::InvalidAccess);
        if cands.len() > MAX_CANDIDATES {
            self.error(
                p.span,
                format!(
                    "an access through a pointer may reach {} memory cells here (at most {MAX_CANDIDATES} are supported)",
                    cands.len()
                ),
            );
            return None;
        }
        // Per object (its cells are consecutive among the candidates): the address is one
        // of its cells', and the object is alive.
        let mut valid: Option<Expr> = None;
        let mut i = 0;
        while i < cands.len() {
            let alive = cands[i].3;
            let base = cands[i].0 / OBJECT_SPACING;
            let mut j = i;
            let mut conds = Vec::new();
            while j < cands.len() && cands[j].0 / OBJECT_SPACING == base {
                conds.push(at_address(addr, form, cands[j].0));
                j += 1;
            }
            i = j;
            if conds.iter().all(|(_, k)| *k == Some(None)) {
                continue;
            }
            let mut c = any_of(form, conds);
            if let Some(al) = alive {
                c = and(c, Expr::var(al, IntType::BOOL));
            }
            valid = Some(match valid {
                None => c,
                Some(v) => or(v, c),
            });
        }
        let Some(valid) = valid else {
            let e = self.add_edge(
                p.from,
                bad,
                EdgeKind::Blank("invalid access".into()),
                p.span,
            );
            self.edges[e.0 as usize].text = Some(p.text.clone());
            return None;
        };
        let ok = self.new_node(p.function, p.span.start_line, NodeKind::Normal);
        let e1 = self.add_edge(
            p.from,
            ok,
            EdgeKind::Assume {
                cond: valid.clone(),
                truth: true,
            },
            p.span,
        );
        let e2 = self.add_edge(
            p.from,
            bad,
            EdgeKind::Assume {
                cond: valid,
                truth: false,
            },
            p.span,
        );
        self.edges[e1.0 as usize].text = Some(p.text.clone());
        self.edges[e2.0 as usize].text = Some(p.text.clone());
        Some(ok)
    }
}
