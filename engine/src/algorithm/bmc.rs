//! Bounded model checking as the unifying-view paper configures it (Sect. 4.1, Alg. 3 lines
//! 1-14): the Predicate CPA with blk^never (one block, merged path formulas), the Loop-Bound
//! CPA with bound k, CPA++ without abort; then one satisfiability query on the disjunction of
//! the path formulas of all error states (SAT: a bug, validated by concrete execution), and the
//! forward condition (Gadelha et al.): the disjunction of the path formulas of the states whose
//! successors the bound cut off. UNSAT means every path was unrolled completely: the program is
//! safe. Otherwise k grows (inc(k) = k + 1) up to `k_max`.

use super::{AlgoStats, Algorithm, Verdict};
use crate::cfa::Cfa;
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::{ControlCpa, Cut};
use crate::cpa::cpa_plus::CpaPlus;
use crate::cpa::waitlist::WaitlistOrder;
use crate::events::Event;
use crate::formula::SsaMap;
use crate::predicate::refine::MAX_TRACE;
use crate::predicate::{PredicateCpa, PredicatePrecision, PredicateState};
use crate::smt::{EngineError, Result, Sat};
use solver_bridge::term::Term;
use std::collections::BTreeMap;
use std::rc::Rc;

enum Phase {
    Start,
    Unroll,
    Base,
    Forward,
}

pub struct Bmc {
    cfa: Rc<Cfa>,
    cpa: PredicateCpa,
    algo: CpaPlus<PredicateCpa>,
    order: WaitlistOrder,
    max_depth: usize,
    pub k: u32,
    pub k_max: u32,
    phase: Phase,
    states_total: u64,
}

/// The disjunction of the path formulas of `states`.
pub fn disjunction(arg: &Arg<PredicateState, PredicatePrecision>, states: &[ArgId]) -> Term {
    Term::or(states.iter().map(|s| arg.node(*s).data.pf.formula.clone()))
}

/// Checks `formula` (a disjunction over error states of `arg`) and turns a model into a
/// validated counterexample.
pub fn check_error_states(
    cpa: &mut PredicateCpa,
    arg: &Arg<PredicateState, PredicatePrecision>,
    cfa: &Cfa,
    root: ArgId,
    errors: &[ArgId],
) -> Result<Option<Verdict>> {
    let formula = disjunction(arg, errors);
    match cpa.smt.check(std::slice::from_ref(&formula))? {
        Sat::Unsat => Ok(None),
        Sat::Unknown(r) => Err(EngineError::Solver(r)),
        Sat::Sat => {
            let vars: Vec<Term> = formula.free_vars().into_iter().map(|v| v.term()).collect();
            let values = cpa
                .smt
                .model(std::slice::from_ref(&formula), &vars)?
                .ok_or_else(|| EngineError::Solver("no model".into()))?;
            let model: BTreeMap<String, Term> = vars
                .iter()
                .zip(values)
                .filter_map(|(v, val)| Some((v.as_var()?.name.to_string(), val)))
                .collect();
            let approximated = errors.iter().any(|e| arg.node(*e).data.pf.approximated);
            Ok(Some(match crate::counterexample::validate(cfa, arg, root, &model, MAX_TRACE) {
                Ok(trace) => {
                    let last = errors.iter().copied().max().unwrap_or(root);
                    Verdict::False { counterexample: crate::counterexample::Counterexample { trace, states: arg.path_to(last).iter().map(|s| s.0).collect() } }
                }
                Err(why) if approximated => Verdict::Unknown {
                    reason: format!("the error path is feasible only under the over-approximation of bit operations of the int encoding ({why}); try --set encoding=bv"),
                },
                Err(why) => Verdict::Unknown { reason: format!("the error path could not be confirmed by concrete execution: {why}") },
            }))
        }
    }
}

impl Bmc {
    pub fn new(
        cfa: Rc<Cfa>,
        cpa: PredicateCpa,
        order: WaitlistOrder,
        max_depth: usize,
        k_init: u32,
        k_max: u32,
    ) -> Bmc {
        let algo = CpaPlus::new(
            Arg::new(order),
            ControlCpa {
                loop_bound: Some(k_init),
                max_depth,
                cut_states: false,
            },
        );
        Bmc {
            cfa,
            cpa,
            algo,
            order,
            max_depth,
            k: k_init,
            k_max,
            phase: Phase::Start,
            states_total: 0,
        }
    }

    fn errors(&self) -> Vec<ArgId> {
        self.algo
            .arg
            .alive()
            .filter(|n| self.cfa.node(n.ctl.location).is_error())
            .map(|n| n.id)
            .collect()
    }
}

impl Algorithm for Bmc {
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Verdict>> {
        let cfa = self.cfa.clone();
        match self.phase {
            Phase::Start => {
                self.states_total += self.algo.arg.len() as u64;
                self.algo = CpaPlus::new(
                    Arg::new(self.order),
                    ControlCpa {
                        loop_bound: Some(self.k),
                        max_depth: self.max_depth,
                        cut_states: false,
                    },
                );
                events.push(Event::Started {
                    algorithm: "bounded model checking".into(),
                    bound: Some(self.k),
                });
                let ctl = self.algo.control.initial(&cfa);
                let data = self.cpa.initial_state(cfa.entry(), SsaMap::default());
                self.algo.init(
                    &cfa,
                    ctl,
                    data,
                    Rc::new(PredicatePrecision::default()),
                    &self.cpa,
                    events,
                );
                self.phase = Phase::Unroll;
                Ok(None)
            }
            Phase::Unroll => {
                match self.algo.arg.pop() {
                    Some(e) => {
                        events.push(Event::StatePopped { state: e.0 });
                        self.algo.expand(&cfa, &mut self.cpa, e, events)?;
                    }
                    None => self.phase = Phase::Base,
                }
                Ok(None)
            }
            Phase::Base => {
                let errors = self.errors();
                let formula = disjunction(&self.algo.arg, &errors);
                let verdict =
                    check_error_states(&mut self.cpa, &self.algo.arg, &cfa, ArgId(0), &errors)?;
                events.push(Event::Check {
                    what: "base".into(),
                    bound: self.k,
                    satisfiable: Some(verdict.is_some()),
                    formula_size: formula.size(),
                });
                if verdict.is_some() {
                    return Ok(verdict);
                }
                self.phase = Phase::Forward;
                Ok(None)
            }
            Phase::Forward => {
                let cut: Vec<ArgId> = self
                    .algo
                    .cut
                    .iter()
                    .map(|(s, _)| *s)
                    .filter(|s| self.algo.arg.node(*s).is_alive())
                    .collect();
                let formula = disjunction(&self.algo.arg, &cut);
                let sat = self.cpa.smt.check(std::slice::from_ref(&formula))?;
                events.push(Event::Check {
                    what: "forward".into(),
                    bound: self.k,
                    satisfiable: match sat {
                        Sat::Sat => Some(true),
                        Sat::Unsat => Some(false),
                        Sat::Unknown(_) => None,
                    },
                    formula_size: formula.size(),
                });
                if sat == Sat::Unsat {
                    return Ok(Some(Verdict::True));
                }
                if self.k >= self.k_max {
                    let recursion = self.algo.cut.iter().any(|(_, c)| *c == Cut::RecursionDepth);
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
                Ok(None)
            }
        }
    }

    fn stats(&self) -> AlgoStats {
        AlgoStats {
            states: self.states_total + self.algo.arg.len() as u64,
            refinements: 0,
            solver_queries: self.cpa.smt.queries(),
            abstractions: 0,
            predicates: 0,
            bound: u64::from(self.k),
        }
    }
}
