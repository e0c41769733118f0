//! An analysis of a CFA with overflow checks (`signed-overflow=check`,
//! [`crate::cfa::transform::overflow`]): the algorithm runs on the checked CFA; a counterexample that
//! ends at a failed check is a concretely replayed run that overflows, which the wrap-around
//! semantics continues and the checked analysis cannot follow, so it becomes UNKNOWN with the
//! place; any other verdict is reported over the original CFA (the checks' own steps and
//! locations are left out of counterexamples and invariants).

use crate::cpa::algorithm::Stats;

use crate::cpa::algorithm::Algorithm;

use crate::cfa::{Cfa, EdgeId, NodeKind};
use crate::events::Event;
use crate::smt::Result;
use crate::verdict::Verdict;
use std::rc::Rc;

pub struct OverflowChecked {
    inner: Box<dyn Algorithm>,
    checked: Rc<Cfa>,
    /// Edges and locations of the original CFA (the checked one appends its own).
    edges: usize,
    nodes: usize,
}

impl OverflowChecked {
    pub fn new(inner: Box<dyn Algorithm>, original: &Cfa, checked: Rc<Cfa>) -> OverflowChecked {
        OverflowChecked {
            inner,
            checked,
            edges: original.edges.len(),
            nodes: original.nodes.len(),
        }
    }
}

impl Algorithm for OverflowChecked {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        Ok(match self.inner.step(events)? {
            Some(Verdict::False { mut counterexample }) => {
                let overflow = counterexample.trace.iter().find(|s| {
                    let e = self.checked.edge(EdgeId(s.edge));
                    self.checked.node(e.to).kind == NodeKind::Overflow
                });
                if let Some(step) = overflow {
                    Some(Verdict::Unknown {
                        reason: format!(
                            "a signed overflow at line {} is reachable (a concrete run overflows there; signed-overflow=check covers only runs without signed overflow, signed-overflow=wrap follows the wrap-around)",
                            step.line
                        ),
                    })
                } else {
                    counterexample
                        .trace
                        .retain(|s| (s.edge as usize) < self.edges);
                    Some(Verdict::False { counterexample })
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
        let mut invariants = self.inner.invariants();
        invariants.retain(|i| (i.location.0 as usize) < self.nodes);
        invariants
    }
}
