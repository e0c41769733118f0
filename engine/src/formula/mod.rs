//! Formulas for C: SSA path formulas of CFA edges (and, by merging, of LBE blocks), and the
//! conversion between indexed formulas (over SSA constants) and unindexed ones (predicates and
//! abstraction formulas over program variables).

pub mod encode;
pub mod ssa;

pub use encode::{Encoder, Encoding, EncodingChoice, Frames, PathFormula};
pub use ssa::{Slot, SsaMap};

use crate::cfa::Cfa;
use crate::ir::VarId;
use solver_bridge::term::{Term, Var};
use std::collections::BTreeMap;

/// Resolves unindexed names (`main::x`, `f::n@2`) to slots.
pub struct Names {
    by_qualified: BTreeMap<String, VarId>,
}

impl Names {
    pub fn new(cfa: &Cfa) -> Names {
        let by_qualified = cfa
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.qualified.clone(), VarId(i as u32)))
            .collect();
        Names { by_qualified }
    }

    pub fn slot(&self, name: &str) -> Option<Slot> {
        let (base, instance) = match name.rsplit_once('@') {
            Some((b, i)) => (b, i.parse().ok()?),
            None => (name, 0),
        };
        self.by_qualified
            .get(base)
            .map(|v| Slot { var: *v, instance })
    }
}

impl Encoder<'_> {
    /// Instantiates an unindexed formula at the SSA map `ssa`: each program variable becomes
    /// its constant at the current index. Variables the map has not seen get index 0 (their
    /// initial value) and their range constraint is returned alongside.
    pub fn instantiate(&self, names: &Names, t: &Term, ssa: &SsaMap) -> (Term, Vec<Term>) {
        let mut extra = Vec::new();
        let mut map: BTreeMap<Var, Term> = BTreeMap::new();
        for v in t.free_vars() {
            let Some(slot) = names.slot(&v.name) else {
                continue;
            };
            let idx = match ssa.get(slot) {
                Some(i) => i,
                None => {
                    let sym = self.symbol(slot, 0);
                    extra.push(self.range(&sym, self.cfa.var(slot.var).ty));
                    0
                }
            };
            map.insert(v, self.symbol(slot, idx));
        }
        (t.substitute(&map), extra)
    }

    /// The unindexed program variable of a slot (the predicate vocabulary).
    pub fn unindexed(&self, slot: Slot) -> Term {
        Term::new_var(
            ssa::slot_name(self.cfa, slot),
            self.sort(self.cfa.var(slot.var).ty),
        )
    }
}

/// Strips SSA indices: `main::x#3` becomes `main::x`. Returns `None` if the term mentions a
/// constant that is not an SSA constant of a program variable (such as an auxiliary value).
pub fn deindex(t: &Term) -> Option<Term> {
    let mut ok = true;
    for v in t.free_vars() {
        match ssa::split_indexed(&v.name) {
            Some((base, _)) if !base.starts_with("__aux") => {}
            _ => ok = false,
        }
    }
    if !ok {
        return None;
    }
    Some(t.rename(&|v: &Var| ssa::split_indexed(&v.name).map(|(b, _)| b.to_string())))
}
