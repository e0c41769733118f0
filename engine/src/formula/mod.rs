//! Formulas for C: SSA path formulas of CFA edges (and, by merging, of LBE blocks), and the
//! conversion between indexed formulas (over SSA constants) and unindexed ones (predicates and
//! abstraction formulas over program variables).

pub mod encode;
pub mod ssa;

pub use encode::{Encoder, Encoding, EncodingChoice, Frames, PathFormula};
pub use ssa::{Slot, SsaMap};

use crate::cfa::Cfa;
use crate::ir::{IntType, VarId};
use crate::memo::Memo;
use solver_bridge::term::{AddrHash, Term, Var};
use std::collections::BTreeMap;
use std::rc::Rc;

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

/// The program variables of an unindexed formula with their slots, in the order of
/// [`Term::free_vars`] (constants that name no program variable are left out).
fn slots_of(names: &Names, t: &Term) -> Vec<(Var, Slot)> {
    t.free_vars()
        .into_iter()
        .filter_map(|v| names.slot(&v.name).map(|s| (v, s)))
        .collect()
}

/// Most instances (and formulas' slot lists) [`Instances`] remembers; past this it starts
/// afresh.
const MAX_INSTANCES: usize = 1 << 14;

/// Remembered instantiations ([`Encoder::instantiate`]) of unindexed formulas, for one CFA
/// and its [`Names`]: a predicate is instantiated at every abstraction of its location, and
/// mostly at SSA indices it was instantiated at before (predicate-sbe abstracts after every
/// edge; building the instance's constants and substituting was a tenth of its engine time
/// on phases_1-1). The instance is a function of the formula, the encoding and the indices
/// of its variables, so remembering it changes nothing but the time.
pub struct Instances {
    slots: Memo<Term, Rc<[(Var, Slot)]>, AddrHash>,
    instances: Memo<InstanceKey, (Term, Rc<[Term]>), AddrHash>,
}

/// A formula, the encoding and the SSA indices of its variables (in the order of its slots).
type InstanceKey = (Term, Encoding, Box<[Option<u32>]>);

impl Default for Instances {
    fn default() -> Instances {
        Instances {
            slots: Memo::new(MAX_INSTANCES),
            instances: Memo::new(MAX_INSTANCES),
        }
    }
}

impl Instances {
    /// [`Encoder::instantiate`], remembered. `enc` and `names` must be of one CFA, the same
    /// at every call.
    pub fn instantiate(
        &self,
        enc: &Encoder,
        names: &Names,
        t: &Term,
        ssa: &SsaMap,
    ) -> (Term, Vec<Term>) {
        let slots = self.slots.get_or(t, || slots_of(names, t).into());
        let indices: Box<[Option<u32>]> = slots.iter().map(|(_, s)| ssa.get(*s)).collect();
        let key = (t.clone(), enc.encoding, indices);
        let (term, extra) = self.instances.get_or(&key, || {
            let (term, extra) = enc.instance(t, &slots, &key.2);
            (term, extra.into())
        });
        (term, extra.to_vec())
    }
}

impl Encoder<'_> {
    /// Instantiates an unindexed formula at the SSA map `ssa`: each program variable becomes
    /// its constant at the current index. Variables the map has not seen get index 0 (their
    /// initial value) and their range constraint is returned alongside.
    pub fn instantiate(&self, names: &Names, t: &Term, ssa: &SsaMap) -> (Term, Vec<Term>) {
        let slots = slots_of(names, t);
        let indices: Vec<Option<u32>> = slots.iter().map(|(_, s)| ssa.get(*s)).collect();
        self.instance(t, &slots, &indices)
    }

    /// `t` with each of its program variables `slots[k]` at the index `indices[k]` (0 and
    /// its range constraint where `None`).
    fn instance(
        &self,
        t: &Term,
        slots: &[(Var, Slot)],
        indices: &[Option<u32>],
    ) -> (Term, Vec<Term>) {
        let mut extra = Vec::new();
        let mut map: BTreeMap<Var, Term> = BTreeMap::new();
        for ((v, slot), idx) in slots.iter().zip(indices) {
            let idx = match idx {
                Some(i) => *i,
                None => {
                    let sym = self.symbol(*slot, 0);
                    extra.push(self.range(&sym, self.cfa.var(slot.var).ty));
                    0
                }
            };
            map.insert(v.clone(), self.symbol(*slot, idx));
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

/// The value of a model literal as a value of `ty`.
pub fn literal_value(t: &Term, ty: IntType) -> Option<i128> {
    if let Some(n) = t.as_int() {
        return i128::try_from(n).ok().map(|v| ty.wrap(v));
    }
    if let Some((v, _)) = t.as_bv() {
        return Some(ty.wrap(v as i128));
    }
    t.as_bool().map(i128::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    /// The remembered instances are the computed ones, at SSA maps that repeat, differ, or
    /// leave a variable out (index 0 and its range constraint), in both encodings.
    #[test]
    fn remembered_instances_are_the_computed_ones() {
        let src = "int main(void) { int x = 0; unsigned char y = 1; x = x + y; return x; }";
        let cfa = parse_program("t.c", src).expect("parses").cfa;
        let names = Names::new(&cfa);
        let slot = |q: &str| names.slot(q).expect("a program variable");
        let (x, y) = (slot("main::x"), slot("main::y"));
        for encoding in [Encoding::Int, Encoding::Bv] {
            let enc = Encoder::new(&cfa, encoding);
            let memo = Instances::default();
            let p = Term::and2(
                Term::le(enc.unindexed(x), enc.unindexed(y)),
                Term::eq(enc.unindexed(y), enc.unindexed(y)),
            );
            let mut maps = Vec::new();
            for (ix, iy) in [
                (Some(1), Some(2)),
                (Some(1), Some(2)),
                (Some(3), None),
                (None, None),
            ] {
                let mut m = SsaMap::default();
                if let Some(i) = ix {
                    m.set(x, i);
                }
                if let Some(i) = iy {
                    m.set(y, i);
                }
                maps.push(m);
            }
            for m in maps.iter().chain(maps.iter().rev()) {
                let remembered = memo.instantiate(&enc, &names, &p, m);
                assert_eq!(remembered, enc.instantiate(&names, &p, m));
            }
            // Different maps give different instances (the memo is keyed by the indices).
            let a = memo.instantiate(&enc, &names, &p, &maps[0]).0;
            let b = memo.instantiate(&enc, &names, &p, &maps[2]).0;
            assert_ne!(a, b);
            // A variable the map has not seen gets its range constraint (Int only).
            let extra = memo.instantiate(&enc, &names, &p, &maps[3]).1;
            assert_eq!(extra.len(), 2);
            assert_eq!(extra.iter().all(Term::is_true), encoding == Encoding::Bv);
        }
    }
}
