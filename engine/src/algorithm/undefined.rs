//! An analysis of a CFA with memory checks (locations of kind [`NodeKind::Undefined`], made by
//! the front end where an access through a pointer, a `free` or an allocation can go wrong): a
//! counterexample that ends there is a concretely replayed run with undefined behaviour (or
//! one the memory model does not follow, [`Ub::Reused`]). The unreach-call property says
//! nothing about such a run, so the verdict becomes UNKNOWN naming the line and the kind;
//! every other verdict passes unchanged.

use crate::cfa::{Cfa, EdgeId, NodeKind};
use crate::cpa::algorithm::{Algorithm, Stats};
use crate::events::Event;
use crate::smt::Result;
use crate::verdict::Verdict;
use std::rc::Rc;

pub struct UndefinedChecked {
    inner: Box<dyn Algorithm>,
    cfa: Rc<Cfa>,
}

impl UndefinedChecked {
    pub fn new(inner: Box<dyn Algorithm>, cfa: Rc<Cfa>) -> UndefinedChecked {
        UndefinedChecked { inner, cfa }
    }

    /// Whether `cfa` has memory checks at all (else the wrapper is not needed).
    pub fn needed(cfa: &Cfa) -> bool {
        cfa.nodes
            .iter()
            .any(|n| matches!(n.kind, NodeKind::Undefined(_)))
    }
}

impl Algorithm for UndefinedChecked {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        Ok(match self.inner.step(events)? {
            Some(Verdict::False { counterexample }) => {
                let last = counterexample.trace.last().map(|s| {
                    let e = self.cfa.edge(EdgeId(s.edge));
                    (self.cfa.node(e.to).kind, s.line)
                });
                match last {
                    Some((NodeKind::Undefined(ub), line)) => Some(Verdict::Unknown {
                        reason: format!("line {line}: {}", ub.describe()),
                    }),
                    _ => Some(Verdict::False { counterexample }),
                }
            }
            v => v,
        })
    }

    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn abstraction_states(&self) -> u64 {
        self.inner.abstraction_states()
    }

    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        self.inner.invariants()
    }
}
