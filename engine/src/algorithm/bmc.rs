//! Bounded model checking as the unifying-view paper configures it (Sect. 4.1, Alg. 3 lines
//! 1-14), on the unrolling core ([`crate::algorithm::unroll`]): for k = k_init, k_init + 1, ...: unroll
//! with bound k, check the error states (SAT: a bug, validated by concrete execution), then
//! the forward condition (UNSAT: every path was unrolled completely, the program is safe;
//! that query is the proof, no separate certificate is needed). Otherwise k grows
//! (inc(k) = k + 1) up to `k_max`.

use crate::algorithm::unroll::Unrolling;
use crate::cpa::algorithm::Algorithm;
use crate::cpa::algorithm::Stats;
use crate::cpa::control::Cut;
use crate::events::Event;
use crate::smt::{Result, Sat};
use crate::verdict::Verdict;

enum Phase {
    Start,
    Unroll,
    Base,
    Forward,
}

pub struct Bmc {
    core: Unrolling,
    max_depth: usize,
    pub k: u32,
    pub k_max: u32,
    phase: Phase,
}

impl Bmc {
    pub fn new(core: Unrolling, max_depth: usize, k_init: u32, k_max: u32) -> Bmc {
        Bmc {
            core,
            max_depth,
            k: k_init,
            k_max,
            phase: Phase::Start,
        }
    }
}

impl Algorithm for Bmc {
    /// The interval invariants at every loop head of `main`: they hold; BMC's own proof, the
    /// forward condition, is no invariant (the witness check's k-induction may still find
    /// the program proved with them).
    fn invariants(&self) -> Vec<crate::invariants::LocationInvariant> {
        crate::invariants::intervals::loop_invariants(&self.core.cfa)
    }

    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        match self.phase {
            Phase::Start => {
                self.core
                    .restart(self.k, None, "bounded model checking", events);
                self.phase = Phase::Unroll;
            }
            Phase::Unroll => {
                if self.core.step(events)? {
                    self.phase = Phase::Base;
                }
            }
            Phase::Base => {
                let verdict = self.core.base_check(self.k, events)?;
                if verdict.is_some() {
                    return Ok(verdict);
                }
                self.phase = Phase::Forward;
            }
            Phase::Forward => {
                if self.core.forward_check(self.k, events)? == Sat::Unsat {
                    return Ok(Some(Verdict::True));
                }
                if self.k >= self.k_max {
                    let recursion = self
                        .core
                        .algo
                        .cut
                        .iter()
                        .any(|(_, c)| *c == Cut::RecursionDepth);
                    let reason = if recursion {
                        format!(
                            "no bug up to bound {} and recursion depth {}; deeper paths remain",
                            self.k, self.max_depth
                        )
                    } else {
                        format!("no bug up to bound {}; the forward condition does not hold (loops run longer)", self.k)
                    };
                    return Ok(Some(Verdict::Unknown { reason }));
                }
                self.k += 1;
                events.push(Event::BoundIncreased { bound: self.k });
                self.phase = Phase::Start;
            }
        }
        Ok(None)
    }

    fn stats(&self) -> Stats {
        Stats {
            states: self.core.states(),
            refinements: 0,
            solver_queries: self.core.smt.queries(),
            cache_hits: self.core.smt.cache_hits(),
            solver_work: self.core.smt.work(),
            abstractions: 0,
            predicates: 0,
            bound: u64::from(self.k),
            ..Stats::default()
        }
    }
}
