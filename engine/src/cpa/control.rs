//! The control part of every composite analysis: the Location CPA (program counter), the
//! Callstack CPA (return sites of the active calls; CPAchecker's `CallstackCPA`, which the
//! unifying-view paper leaves unspecified) and the optional Loop-Bound CPA of the unifying-view
//! paper, Sect. 4.1 (one counter per loop head, starting at -1, incremented when the loop head
//! is reached; no successors from a state whose counter equals the bound k).
//!
//! All three use `merge^sep` and `stop^sep`: two composite states are merged or cover each other
//! only when their control parts are equal ("merge-agree").

use crate::cfa::{Cfa, Edge, EdgeKind, NodeId};
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The control state: location, call stack and (for BMC and k-induction) loop counters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ControlState {
    pub location: NodeId,
    /// Return sites of the active calls, innermost last.
    pub stack: Rc<Vec<NodeId>>,
    /// Loop-head location -> number of times it was reached minus one (absent means -1).
    pub counters: Option<Rc<BTreeMap<NodeId, u32>>>,
    /// The state entered a call beyond the recursion depth bound ([`ControlCpa::cut_states`]):
    /// it is never expanded; an analysis treats it like a target (is the path to it feasible?).
    pub beyond: bool,
}

impl crate::formula::encode::CallContext for ControlState {
    fn location(&self) -> NodeId {
        self.location
    }
    fn return_sites(&self) -> &[NodeId] {
        &self.stack
    }
}

impl ControlState {
    /// The control state at `location` outside any call and without loop counters: where a
    /// formula over the location's variables is encoded (a predicate or an invariant given
    /// at a line).
    pub fn at(location: NodeId) -> ControlState {
        ControlState {
            location,
            stack: Default::default(),
            counters: None,
            beyond: false,
        }
    }

    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The counter of loop head `l` (-1 when never reached).
    pub fn counter(&self, l: NodeId) -> i64 {
        self.counters
            .as_ref()
            .and_then(|c| c.get(&l))
            .map_or(-1, |&v| i64::from(v))
    }

    pub fn max_counter(&self) -> i64 {
        self.counters
            .as_ref()
            .and_then(|c| c.values().max())
            .map_or(-1, |&v| i64::from(v))
    }
}

/// Why a successor was not produced although the CFA has the edge. Analyses that cut paths
/// must not claim a proof for the cut part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Cut {
    /// The loop bound k of the Loop-Bound CPA was reached.
    LoopBound,
    /// The recursion depth bound was reached.
    RecursionDepth,
}

#[derive(Clone, Debug)]
pub struct ControlCpa {
    /// Loop bound k (Loop-Bound CPA), `None` when the CPA is not part of the composite.
    pub loop_bound: Option<u32>,
    /// Calls nested deeper than this are not followed (recursion); the cut is reported.
    pub max_depth: usize,
    /// A call beyond `max_depth` yields a state marked [`ControlState::beyond`] (CEGAR refines
    /// the path to it like the path to an error, so that recursion bounded by the data gets a
    /// proof) instead of no state and [`Cut::RecursionDepth`] (BMC and k-induction, whose
    /// forward condition accounts for the cut paths).
    pub cut_states: bool,
}

impl ControlCpa {
    pub fn initial(&self, cfa: &Cfa) -> ControlState {
        self.initial_at(cfa, cfa.entry())
    }

    /// An initial state at an arbitrary location (k-induction's step case starts at a loop head).
    pub fn initial_at(&self, cfa: &Cfa, location: NodeId) -> ControlState {
        let mut s = ControlState {
            location,
            stack: Rc::new(Vec::new()),
            counters: self.loop_bound.map(|_| Rc::new(BTreeMap::new())),
            beyond: false,
        };
        if cfa.node(location).loop_head {
            self.count(&mut s, location);
        }
        s
    }

    fn count(&self, s: &mut ControlState, l: NodeId) {
        if let Some(c) = &mut s.counters {
            let m = Rc::make_mut(c);
            let next = m.get(&l).map_or(0, |v| v + 1);
            m.insert(l, next);
        }
    }

    /// Whether the Loop-Bound CPA allows successors of `s`.
    pub fn bound_reached(&self, s: &ControlState) -> bool {
        match (self.loop_bound, &s.counters) {
            (Some(k), Some(c)) => c.values().any(|&v| v >= k),
            _ => false,
        }
    }

    /// The control successor of `s` along `edge` (which must leave `s.location`), or the reason
    /// there is none. `Ok(None)`: the edge does not apply (a return to another call site).
    pub fn successor(
        &self,
        cfa: &Cfa,
        s: &ControlState,
        edge: &Edge,
    ) -> Result<Option<ControlState>, Cut> {
        debug_assert_eq!(edge.from, s.location);
        debug_assert!(
            !s.beyond,
            "a state beyond the recursion bound is never expanded"
        );
        if self.bound_reached(s) {
            return Err(Cut::LoopBound);
        }
        let mut next = ControlState {
            location: edge.to,
            stack: s.stack.clone(),
            counters: s.counters.clone(),
            beyond: false,
        };
        match &edge.kind {
            EdgeKind::Call { return_site, .. } => {
                if s.stack.len() >= self.max_depth {
                    if !self.cut_states {
                        return Err(Cut::RecursionDepth);
                    }
                    next.beyond = true;
                }
                Rc::make_mut(&mut next.stack).push(*return_site);
            }
            EdgeKind::Return { .. } => {
                if s.stack.last() != Some(&edge.to) {
                    return Ok(None);
                }
                Rc::make_mut(&mut next.stack).pop();
            }
            _ => {}
        }
        if cfa.node(edge.to).loop_head {
            self.count(&mut next, edge.to);
        }
        Ok(Some(next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    #[test]
    fn loop_bound_counts_from_minus_one() {
        let p = parse_program(
            "t.c",
            "int main(void) { int i = 0; while (i < 3) { i++; } return 0; }",
        )
        .unwrap();
        let cfa = &p.cfa;
        let ctl = ControlCpa {
            loop_bound: Some(1),
            max_depth: 8,
            cut_states: false,
        };
        let head = cfa.nodes.iter().find(|n| n.loop_head).unwrap().id;
        // Walk the CFA: entry .. head (counter 0), body, head again (counter 1): bound reached.
        let mut s = ctl.initial(cfa);
        let mut visits = 0;
        for _ in 0..20 {
            let e = cfa.successors(s.location).next().unwrap();
            match ctl.successor(cfa, &s, e) {
                Ok(Some(n)) => s = n,
                Ok(None) => unreachable!(),
                Err(cut) => {
                    assert_eq!(cut, Cut::LoopBound);
                    break;
                }
            }
            if s.location == head {
                visits += 1;
                assert_eq!(s.counter(head), visits - 1);
            }
        }
        assert_eq!(visits, 2);
        assert!(ctl.bound_reached(&s));
    }

    #[test]
    fn returns_go_to_the_matching_call_site() {
        let p = parse_program(
            "t.c",
            "int f(int a) { return a; } int main(void) { int x = f(1); int y = f(2); return x + y; }",
        )
        .unwrap();
        let cfa = &p.cfa;
        let ctl = ControlCpa {
            loop_bound: None,
            max_depth: 8,
            cut_states: false,
        };
        let f = cfa.function_by_name("f").unwrap();
        let calls: Vec<_> = cfa
            .edges
            .iter()
            .filter(|e| matches!(e.kind, EdgeKind::Call { .. }))
            .collect();
        assert_eq!(calls.len(), 2);
        let EdgeKind::Call { return_site, .. } = calls[0].kind else {
            unreachable!()
        };
        let s = ControlState {
            location: f.exit,
            stack: Rc::new(vec![return_site]),
            counters: None,
            beyond: false,
        };
        let applicable: Vec<_> = cfa
            .successors(f.exit)
            .filter_map(|e| ctl.successor(cfa, &s, e).ok().flatten())
            .collect();
        assert_eq!(applicable.len(), 1);
        assert_eq!(applicable[0].location, return_site);
        assert!(applicable[0].stack.is_empty());
    }
}
