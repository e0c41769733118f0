//! Explicit values combined with predicate abstraction (domain `value-predicate`): the
//! composite of the Value Analysis CPA and the Predicate CPA, as in the combination of the
//! explicit-value CEGAR paper (Beyer and Löwe, "Explicit-State Software Model Checking Based
//! on CEGAR and Interpolation", FASE 2013, Sect. 4: the explicit-value analysis refined first,
//! predicate refinement for the paths that explicit values cannot refute).
//!
//! * **States** are pairs (values, (ψ, l^ψ, φ)); the precision is the pair of the tracked
//!   variables and the predicates, both per location.
//! * **Transfer**: the value transfer (which may drop an infeasible successor or enumerate
//!   values), then the Predicate CPA's syntactic strongest postcondition for each successor.
//! * **Precision adjustment**: the value part forgets untracked variables; the predicate part
//!   computes its abstraction at the block ends of its block operator (`false`: no
//!   successor).
//! * **Merge**: the Predicate CPA's merge of intermediate states of one block (the disjunction
//!   of their path formulas, large-block encoding), only for states with equal values.
//! * **stop^sep** at abstraction states: covered when both the values and ψ are covered.
//!
//! Refinement ([`crate::refinement::value_predicate`]) tries value interpolation first and
//! falls back to the sequence interpolants of the predicate blocks.

use crate::cfa::{Cfa, Edge, NodeId};
use crate::cpa::control::ControlState;
use crate::cpa::{Adjusted, Counters, Cpa, Describe, MergeKind, Precision, StopKind, Successors};
use crate::domains::predicate::{PredicateCpa, PredicatePrecision, PredicateState};
use crate::domains::value::{ValueCpa, ValuePrecision, ValueState};
use crate::events::StateKind;
use crate::smt::{Result, Smt};
use solver_bridge::term::Term;

/// A state of the combination: the known values and the predicate state.
#[derive(Clone, Debug)]
pub struct ValuePredicateState {
    pub value: ValueState,
    pub pred: PredicateState,
}

/// The tracked variables and the predicates, per location.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValuePredicatePrecision {
    pub value: ValuePrecision,
    pub pred: PredicatePrecision,
}

impl Precision for ValuePredicatePrecision {
    fn join(&self, other: &Self) -> Self {
        ValuePredicatePrecision {
            value: self.value.join(&other.value),
            pred: self.pred.join(&other.pred),
        }
    }

    fn count_at(&self, l: NodeId) -> usize {
        self.value.count_at(l) + self.pred.count_at(l)
    }
}

pub struct ValuePredicateCpa {
    pub value: ValueCpa,
    pub pred: PredicateCpa,
    /// Why the last refutation is empty (interpolation failed), for the UNKNOWN reason of a
    /// refinement that makes no progress.
    pub refutation_failure: Option<String>,
}

impl ValuePredicateCpa {
    pub fn cfa(&self) -> &std::rc::Rc<Cfa> {
        &self.value.cfa
    }

    /// What a reached abstraction state asserts: its values and ψ, over unindexed program
    /// variables.
    pub fn formula(&self, s: &ValuePredicateState) -> Term {
        let mut parts = vec![self.value.formula(&s.value)];
        if s.pred.is_abstraction() {
            parts.push(self.pred.abs_term(&s.pred.abs));
        }
        Term::and(parts)
    }
}

impl crate::domains::predicate::HasPredicateState for ValuePredicateState {
    fn predicate_state(&self) -> &PredicateState {
        &self.pred
    }
}

impl Cpa for ValuePredicateCpa {
    type State = ValuePredicateState;
    type Prec = ValuePredicatePrecision;

    fn initial_state(&mut self, ctl: &ControlState) -> ValuePredicateState {
        ValuePredicateState {
            value: self.value.initial_state(ctl),
            pred: self.pred.initial_state(ctl),
        }
    }

    fn transfer(
        &mut self,
        smt: &mut dyn Smt,
        s: &ValuePredicateState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
        prec: &ValuePredicatePrecision,
    ) -> Result<Successors<ValuePredicateState>> {
        let values = self
            .value
            .transfer(smt, &s.value, edge, from, to, &prec.value)?;
        if values.states.is_empty() {
            return Ok(Successors {
                states: Vec::new(),
                note: values.note,
            });
        }
        let preds = self
            .pred
            .transfer(smt, &s.pred, edge, from, to, &prec.pred)?;
        let states = values
            .states
            .into_iter()
            .flat_map(|v| {
                preds.states.iter().map(move |p| ValuePredicateState {
                    value: v.clone(),
                    pred: p.clone(),
                })
            })
            .collect();
        Ok(Successors {
            states,
            note: values.note,
        })
    }

    fn adjust(
        &mut self,
        smt: &mut dyn Smt,
        s: ValuePredicateState,
        ctl: &ControlState,
        prec: &ValuePredicatePrecision,
    ) -> Result<Option<Adjusted<ValuePredicateState>>> {
        let Some(value) = self.value.adjust(smt, s.value, ctl, &prec.value)? else {
            return Ok(None);
        };
        let Some(pred) = self.pred.adjust(smt, s.pred, ctl, &prec.pred)? else {
            return Ok(None);
        };
        Ok(Some(Adjusted {
            state: ValuePredicateState {
                value: value.state,
                pred: pred.state,
            },
            abstraction: pred.abstraction,
        }))
    }

    fn merge_kind(&self) -> MergeKind {
        self.pred.merge_kind()
    }

    /// The Predicate CPA's merge inside a block, for states with equal values only.
    fn merge(
        &mut self,
        smt: &mut dyn Smt,
        new: &ValuePredicateState,
        reached: &ValuePredicateState,
    ) -> Result<Option<ValuePredicateState>> {
        if new.value != reached.value {
            return Ok(None);
        }
        Ok(self
            .pred
            .merge(smt, &new.pred, &reached.pred)?
            .map(|pred| ValuePredicateState {
                value: reached.value.clone(),
                pred,
            }))
    }

    /// Merged only with equal values and by the Predicate CPA's merge: the values' cover key
    /// followed by the predicate part's merge key (its components are above every slot's).
    fn merge_key(&self, s: &ValuePredicateState) -> Option<crate::cpa::CoverKey> {
        let mut key = self.value.cover_key(&s.value)?;
        key.extend(self.pred.merge_key(&s.pred)?);
        Some(key)
    }

    fn stop_kind(&self) -> StopKind {
        StopKind::Sep
    }

    fn may_cover(&self, s: &ValuePredicateState) -> bool {
        self.pred.may_cover(&s.pred)
    }

    /// Covered only where the values are: the values' cover key.
    fn cover_key(&self, s: &ValuePredicateState) -> Option<crate::cpa::CoverKey> {
        self.value.cover_key(&s.value)
    }

    fn covered_by(
        &mut self,
        smt: &mut dyn Smt,
        s: &ValuePredicateState,
        by: &ValuePredicateState,
    ) -> Result<bool> {
        Ok(self.value.covered_by(smt, &s.value, &by.value)?
            && self.pred.covered_by(smt, &s.pred, &by.pred)?)
    }

    fn counters(&self) -> Counters {
        let (v, p) = (self.value.counters(), self.pred.counters());
        Counters {
            abstractions: p.abstractions,
            precision: v.precision + p.precision,
        }
    }
}

impl Describe for ValuePredicateCpa {
    /// The values, and ψ at abstraction states: `x = 1 ∧ (i < n)`.
    fn describe(&self, s: &ValuePredicateState) -> (StateKind, String) {
        let kind = self.kind(s);
        let values = (!s.value.values.is_empty()).then(|| self.value.text(&s.value));
        let psi = match kind {
            StateKind::Abstraction if !self.pred.abs_term(&s.pred.abs).is_true() => {
                Some(self.pred.abs_text(&s.pred.abs))
            }
            _ => None,
        };
        let label = match (values, psi) {
            (Some(v), Some(p)) => format!("{v} ∧ {p}"),
            (Some(v), None) => v,
            (None, Some(p)) => p,
            (None, None) => "⊤".into(),
        };
        (kind, label)
    }

    fn kind(&self, s: &ValuePredicateState) -> StateKind {
        self.pred.kind(&s.pred)
    }
}
