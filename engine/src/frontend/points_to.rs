//! Which objects each variable may point into: a flow-insensitive, inclusion-based points-to
//! analysis (Andersen's, over the whole program) run on the lowered CFA before the memory
//! operations at dynamic addresses are lowered. An access through a pointer then considers
//! only the cells of the objects its address may point into, instead of every escaped
//! object's.
//!
//! Values flow through assignments, declarations, arguments, return values and memory (a
//! read takes what any cell of the objects read may hold; a write gives the written value's
//! objects to every such cell). An expression may point into the objects its variables may
//! point into and the objects whose address range contains one of its constants. A pointer
//! given an arbitrary value (`__VERIFIER_nondet_pointer()`, a function without a body) may
//! point into any escaped object. An uninitialised pointer points nowhere valid: reading
//! through it is undefined, and the access's check sends every such path to the
//! undefined-behaviour location, as it does for any address outside the candidates. So the
//! sets only narrow the candidates to the objects a defined execution can reach.

use crate::cfa::{Edge, EdgeKind, Function, Rhs};
use crate::frontend::objects::{MemOp, ObjId, Object, Pending};
use crate::ir::{Expr, ExprKind, VarId, Variable};
use std::collections::BTreeSet;

/// What a variable may point into.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    /// Any escaped object.
    pub any: bool,
    pub objects: BTreeSet<ObjId>,
}

impl Targets {
    /// Adds `other`; whether that changed anything.
    fn join(&mut self, other: &Targets) -> bool {
        let mut changed = false;
        if other.any && !self.any {
            self.any = true;
            changed = true;
        }
        for o in &other.objects {
            changed |= self.objects.insert(*o);
        }
        changed
    }
}

/// The points-to sets of every variable.
pub struct PointsTo {
    vars: Vec<Targets>,
    /// The objects' address ranges `[base, base + size]` (one past the end included).
    ranges: Vec<(u64, u64)>,
}

impl PointsTo {
    /// The analysis of a program's edges and pending memory operations.
    pub fn analyse(
        vars: &[Variable],
        edges: &[Edge],
        functions: &[Function],
        objects: &[Object],
        pending: &[Pending],
        pointers: &BTreeSet<VarId>,
    ) -> PointsTo {
        let mut pt = PointsTo {
            vars: vec![Targets::default(); vars.len()],
            ranges: objects.iter().map(|o| (o.base, o.base + o.size)).collect(),
        };
        let is_pointer = |v: VarId| vars[v.0 as usize].pointer || pointers.contains(&v);
        let any = Targets {
            any: true,
            objects: BTreeSet::new(),
        };
        // Rounds until nothing changes; each round can only add, and the sets are bounded.
        loop {
            let mut changed = false;
            for e in edges {
                match &e.kind {
                    EdgeKind::Assign { lhs, rhs } => {
                        changed |= pt.flow_rhs(*lhs, rhs, is_pointer(*lhs), &any);
                    }
                    EdgeKind::Declare {
                        var,
                        init: Some(rhs),
                    } => {
                        changed |= pt.flow_rhs(*var, rhs, is_pointer(*var), &any);
                    }
                    EdgeKind::Call { callee, args, .. } => {
                        let params = &functions[callee.0 as usize].params;
                        for (p, a) in params.iter().zip(args) {
                            let t = pt.of(a);
                            changed |= pt.vars[p.0 as usize].join(&t);
                        }
                    }
                    EdgeKind::ReturnValue {
                        function,
                        value: Some(v),
                    } => {
                        if let Some((_, rv)) = functions[function.0 as usize].ret {
                            let t = pt.of(v);
                            changed |= pt.vars[rv.0 as usize].join(&t);
                        }
                    }
                    EdgeKind::Return {
                        callee,
                        assign: Some(a),
                        ..
                    } => {
                        if let Some((_, rv)) = functions[callee.0 as usize].ret {
                            let t = pt.vars[rv.0 as usize].clone();
                            changed |= pt.vars[a.0 as usize].join(&t);
                        }
                    }
                    _ => {}
                }
            }
            for p in pending {
                match &p.op {
                    MemOp::Read { dst, addr, obj, .. } => {
                        let mut t = Targets::default();
                        for o in pt.reached(addr, *obj, objects) {
                            for (_, c) in &objects[o.0 as usize].cells {
                                t.join(&pt.vars[c.0 as usize].clone());
                            }
                        }
                        changed |= pt.vars[dst.0 as usize].join(&t);
                    }
                    MemOp::Write {
                        addr, value, obj, ..
                    } => {
                        let t = pt.of(value);
                        for o in pt.reached(addr, *obj, objects) {
                            for (_, c) in &objects[o.0 as usize].cells {
                                changed |= pt.vars[c.0 as usize].join(&t);
                            }
                        }
                    }
                    MemOp::Free { .. } => {}
                }
            }
            if !changed {
                return pt;
            }
        }
    }

    /// The objects an access at `addr` (known to be in `obj` when given) may reach.
    pub fn reached(&self, addr: &Expr, obj: Option<ObjId>, objects: &[Object]) -> Vec<ObjId> {
        if let Some(o) = obj {
            return vec![o];
        }
        let t = self.of(addr);
        if t.any {
            return (0..objects.len() as u32)
                .map(ObjId)
                .filter(|o| objects[o.0 as usize].escaped || t.objects.contains(o))
                .collect();
        }
        t.objects.into_iter().collect()
    }

    /// What the value of `e` may point into.
    pub fn of(&self, e: &Expr) -> Targets {
        let mut t = Targets::default();
        self.collect(e, &mut t);
        t
    }

    fn collect(&self, e: &Expr, t: &mut Targets) {
        match &e.kind {
            ExprKind::Const(c) => {
                if let Ok(a) = u64::try_from(*c) {
                    for (i, (lo, hi)) in self.ranges.iter().enumerate() {
                        if (*lo..=*hi).contains(&a) {
                            t.objects.insert(ObjId(i as u32));
                        }
                    }
                }
            }
            ExprKind::Var(v) => {
                t.join(&self.vars[v.0 as usize]);
            }
            ExprKind::Unary(_, a) | ExprKind::Cast { operand: a, .. } => self.collect(a, t),
            ExprKind::Binary(_, a, b) => {
                self.collect(a, t);
                self.collect(b, t);
            }
            // The condition chooses, it is not the value.
            ExprKind::Ite(_, a, b) => {
                self.collect(a, t);
                self.collect(b, t);
            }
        }
    }

    fn flow_rhs(&mut self, lhs: VarId, rhs: &Rhs, pointer: bool, any: &Targets) -> bool {
        let t = match rhs {
            Rhs::Expr(e) => self.of(e),
            // An arbitrary pointer may point anywhere; an arbitrary integer points nowhere
            // (converting it to a pointer gives no object a defined execution may use).
            Rhs::Nondet { .. } if pointer => any.clone(),
            Rhs::Nondet { .. } => Targets::default(),
        };
        self.vars[lhs.0 as usize].join(&t)
    }
}
