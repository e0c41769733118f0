//! Static single assignment indices of path formulas.
//!
//! A program variable becomes one SMT constant per assignment: `main::x#3` is the value of
//! `main::x` after its third assignment on the path. Locals of recursive functions are kept
//! apart per activation: the n-th simultaneous activation of `f` (counting from the outermost)
//! names its locals `f::x@n#i`; the outermost activation omits `@0`, so programs without
//! recursion get plain names. Unindexed names (`main::x`, `f::x@1`) are the predicate
//! vocabulary of abstraction formulas.

use crate::cfa::Cfa;
use crate::ir::VarId;
use std::collections::BTreeMap;

/// A variable in one activation: globals always have instance 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    pub var: VarId,
    pub instance: u32,
}

/// The current SSA index of every slot seen on a path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SsaMap {
    map: BTreeMap<Slot, u32>,
}

impl SsaMap {
    pub fn get(&self, s: Slot) -> Option<u32> {
        self.map.get(&s).copied()
    }

    pub fn set(&mut self, s: Slot, idx: u32) {
        self.map.insert(s, idx);
    }

    pub fn iter(&self) -> impl Iterator<Item = (Slot, u32)> + '_ {
        self.map.iter().map(|(s, i)| (*s, *i))
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The slot-wise maximum of two maps (the map of a merged path formula).
    pub fn join(&self, other: &SsaMap) -> SsaMap {
        let mut map = self.map.clone();
        for (s, i) in &other.map {
            let e = map.entry(*s).or_insert(*i);
            *e = (*e).max(*i);
        }
        SsaMap { map }
    }
}

/// The unindexed name of a slot (the predicate vocabulary).
pub fn slot_name(cfa: &Cfa, s: Slot) -> String {
    let q = &cfa.var(s.var).qualified;
    if s.instance == 0 {
        q.clone()
    } else {
        format!("{q}@{}", s.instance)
    }
}

/// The SMT constant of a slot at an SSA index.
pub fn indexed_name(cfa: &Cfa, s: Slot, idx: u32) -> String {
    format!("{}#{idx}", slot_name(cfa, s))
}

/// Splits `name#idx` into the unindexed name and the index.
pub fn split_indexed(name: &str) -> Option<(&str, u32)> {
    let (base, idx) = name.rsplit_once('#')?;
    Some((base, idx.parse().ok()?))
}
