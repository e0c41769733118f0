//! The operators of the Value Analysis CPA (the data component of the composite): transfer by
//! [`post`](crate::domains::value::post) and, where it cannot evaluate an operation over tracked variables and
//! `max-enum` allows it, by enumerating the solutions with the solver (the efficient-CEGAR
//! paper's Algorithm 4, T_k); precision adjustment to the tracked variables of the successor's
//! location; `merge^sep`; `stop^sep` with [`ValueState::less_or_equal`].

use crate::cfa::{Cfa, Edge, EdgeKind, Rhs};
use crate::cpa::control::ControlState;
use crate::cpa::{
    key_value, slot_component, Adjusted, Counters, CoverKey, Cpa, Describe, MergeKind, StopKind,
    Successors, TransferNote,
};
use crate::domains::value::post::{self, Frames2};
use crate::domains::value::{MaxEnum, ValueConfig, ValuePrecision, ValueState};
use crate::events::StateKind;
use crate::formula::literal_value;
use crate::formula::{Encoder, Encoding, Names, PathFormula, Slot, SsaMap};
use crate::smt::{EngineError, Result, Smt};
use solver_bridge::term::Term;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The most assignments one transfer enumerates, also with `max-enum=0` ("unbounded"): each
/// model is one more query with one more blocking clause, so an enumeration over a variable of
/// type `int` would otherwise run for hours inside one step.
pub const MAX_ENUMERATION: u32 = 64;

/// Longest state label put into an event.
const MAX_LABEL: usize = 400;

#[derive(Clone, Debug, Default)]
pub struct ValueStats {
    /// Transfers that enumerated values with the solver.
    pub enumerations: u64,
    /// The largest precision seen (tracked location-variable pairs).
    pub tracked: u64,
}

/// A variable slot as the user reads it: the variable's name, `@n` for recursion frames.
pub fn slot_text(cfa: &Cfa, slot: Slot) -> String {
    let var = cfa.var(slot.var);
    let name = if var.synthetic {
        var.qualified.clone()
    } else {
        var.name.clone()
    };
    if slot.instance == 0 {
        name
    } else {
        format!("{name}@{}", slot.instance)
    }
}

pub struct ValueCpa {
    pub cfa: Rc<Cfa>,
    pub cfg: ValueConfig,
    /// The encoding of the solver's formulas (enumeration, feasibility, certificate).
    pub encoding: Encoding,
    pub names: Names,
    pub stats: ValueStats,
}

impl ValueCpa {
    pub fn new(cfa: Rc<Cfa>, cfg: ValueConfig, encoding: Encoding) -> ValueCpa {
        let names = Names::new(&cfa);
        ValueCpa {
            cfa,
            cfg,
            encoding,
            names,
            stats: ValueStats::default(),
        }
    }

    pub fn encoder(&self) -> Encoder<'_> {
        Encoder::new(&self.cfa, self.encoding)
    }

    /// expr(s): the conjunction of `x = v(x)` over unindexed program variables (`true` for ⊤).
    pub fn formula(&self, s: &ValueState) -> Term {
        let enc = self.encoder();
        Term::and(s.values.iter().map(|(slot, v)| {
            Term::eq(
                enc.unindexed(*slot),
                enc.constant(self.cfa.var(slot.var).ty, *v),
            )
        }))
    }

    /// The state as text: `x = 1, y = -2` (the user's names, `@n` for recursion frames).
    pub fn text(&self, s: &ValueState) -> String {
        if s.values.is_empty() {
            return "⊤".into();
        }
        let mut out = String::new();
        for (slot, v) in &s.values {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&self.slot_text(*slot));
            out.push_str(&format!(" = {v}"));
            if out.len() > MAX_LABEL {
                out.push('…');
                break;
            }
        }
        out
    }

    pub fn slot_text(&self, slot: Slot) -> String {
        slot_text(&self.cfa, slot)
    }

    /// The slots T_k enumerates for `edge`: the variables it reads or writes that the
    /// precision tracks at the successor's location and `next` does not know.
    fn enumerated_slots(
        &self,
        edge: &Edge,
        fr: &Frames2,
        to: &ControlState,
        next: &ValueState,
        prec: &ValuePrecision,
    ) -> Vec<Slot> {
        let mut vars = BTreeSet::new();
        let mut read = |e: &crate::ir::Expr| {
            e.for_each_var(&mut |v| {
                vars.insert(v);
            })
        };
        match &edge.kind {
            EdgeKind::Assume { cond, .. } => read(cond),
            EdgeKind::Assign { lhs, rhs } => {
                if let Rhs::Expr(e) = rhs {
                    read(e);
                }
                vars.insert(*lhs);
            }
            EdgeKind::Declare { var, init } => {
                if let Some(Rhs::Expr(e)) = init {
                    read(e);
                }
                vars.insert(*var);
            }
            EdgeKind::ReturnValue { function, value } => {
                if let Some(e) = value {
                    read(e);
                }
                if let Some((_, rv)) = self.cfa.function(*function).ret {
                    vars.insert(rv);
                }
            }
            _ => {}
        }
        vars.into_iter()
            .filter(|v| prec.contains(to.location, v))
            .map(|v| fr.write.slot(&self.cfa, v))
            .filter(|s| !next.values.contains_key(s))
            .collect()
    }

    /// T_k: the assignments of `slots` after `edge` under `s`, one successor each, when there
    /// are at most `k` of them (`Ok(None)`: more, or the solver gave up).
    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &mut self,
        smt: &mut dyn Smt,
        s: &ValueState,
        next: &ValueState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
        slots: &[Slot],
        k: u32,
    ) -> Result<Option<Vec<ValueState>>> {
        self.stats.enumerations += 1;
        let enc = self.encoder();
        let (start, mut parts) = enc.instantiate(&self.names, &self.formula(s), &SsaMap::default());
        let pf = PathFormula {
            formula: start,
            ssa: SsaMap::default(),
            approximated: false,
        };
        let pf = enc.sp(&pf, edge, from, to);
        parts.push(pf.formula);
        let syms: Vec<Term> = slots
            .iter()
            .map(|slot| {
                let sym = enc.symbol(*slot, pf.ssa.get(*slot).unwrap_or(0));
                parts.push(enc.range(&sym, self.cfa.var(slot.var).ty));
                sym
            })
            .collect();
        let mut found: Vec<Vec<i128>> = Vec::new();
        loop {
            let bound = if k == 0 { MAX_ENUMERATION } else { k };
            if found.len() > bound as usize {
                return Ok(None);
            }
            let values = match smt.model(&parts, &syms) {
                Ok(Some(v)) => v,
                Ok(None) => break,
                // The solver gave up: the classic transfer (an over-approximation) stands.
                Err(EngineError::Solver(_)) => return Ok(None),
                Err(e) => return Err(e),
            };
            let mut row = Vec::new();
            for (slot, t) in slots.iter().zip(&values) {
                let ty = self.cfa.var(slot.var).ty;
                let v = literal_value(t, ty).ok_or_else(|| {
                    EngineError::Solver(format!("enumeration: not a literal: {t}"))
                })?;
                row.push(v);
            }
            parts.push(Term::not(Term::and(slots.iter().zip(&syms).zip(&row).map(
                |((slot, sym), v)| {
                    Term::eq(sym.clone(), enc.constant(self.cfa.var(slot.var).ty, *v))
                },
            ))));
            found.push(row);
        }
        Ok(Some(
            found
                .into_iter()
                .map(|row| {
                    let mut st = next.clone();
                    for (slot, v) in slots.iter().zip(row) {
                        st.values.insert(*slot, v);
                    }
                    st
                })
                .collect(),
        ))
    }
}

impl Cpa for ValueCpa {
    type State = ValueState;
    type Prec = ValuePrecision;

    fn initial_state(&mut self, _ctl: &ControlState) -> ValueState {
        ValueState::default()
    }

    fn transfer(
        &mut self,
        smt: &mut dyn Smt,
        s: &ValueState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
        prec: &ValuePrecision,
    ) -> Result<Successors<ValueState>> {
        let cfa = self.cfa.clone();
        let p = post::post(&cfa, s, edge, from, to);
        let Some(next) = p.state else {
            return Ok(Successors::none());
        };
        let k = match self.cfg.max_enum {
            MaxEnum::Bounded(k) if p.unknown => k,
            _ => return Ok(Successors::one(next)),
        };
        let fr = Frames2::of(&cfa, from, to);
        let slots = self.enumerated_slots(edge, &fr, to, &next, prec);
        if slots.is_empty() && !matches!(edge.kind, EdgeKind::Assume { .. }) {
            return Ok(Successors::one(next));
        }
        match self.enumerate(smt, s, &next, edge, from, to, &slots, k)? {
            Some(states) => {
                let values = states
                    .iter()
                    .map(|st| {
                        let shown = ValueState {
                            values: slots
                                .iter()
                                .filter_map(|sl| st.values.get(sl).map(|v| (*sl, *v)))
                                .collect(),
                        };
                        self.text(&shown)
                    })
                    .collect();
                Ok(Successors {
                    states,
                    note: Some(TransferNote::Enumerated { values }),
                })
            }
            None => Ok(Successors {
                states: vec![next],
                note: Some(TransferNote::EnumerationExceeded {
                    bound: if k == 0 { MAX_ENUMERATION } else { k },
                }),
            }),
        }
    }

    fn adjust(
        &mut self,
        _smt: &mut dyn Smt,
        s: ValueState,
        ctl: &ControlState,
        prec: &ValuePrecision,
    ) -> Result<Option<Adjusted<ValueState>>> {
        self.stats.tracked = self.stats.tracked.max(prec.size() as u64);
        let state = s.restrict(|v| prec.contains(ctl.location, &v));
        Ok(Some(Adjusted {
            state,
            abstraction: None,
        }))
    }

    fn merge_kind(&self) -> MergeKind {
        MergeKind::Sep
    }

    fn merge(
        &mut self,
        _smt: &mut dyn Smt,
        _new: &ValueState,
        _reached: &ValueState,
    ) -> Result<Option<ValueState>> {
        Ok(None)
    }

    fn stop_kind(&self) -> StopKind {
        StopKind::Sep
    }

    fn may_cover(&self, _s: &ValueState) -> bool {
        true
    }

    fn covered_by(&mut self, _smt: &mut dyn Smt, s: &ValueState, by: &ValueState) -> Result<bool> {
        Ok(s.less_or_equal(by))
    }

    /// `s ⊑ by` needs every value of `by` in `s`: the values are the key.
    fn cover_key(&self, s: &ValueState) -> Option<CoverKey> {
        Some(
            s.values
                .iter()
                .map(|(slot, v)| (slot_component(*slot), key_value(v)))
                .collect(),
        )
    }

    fn counters(&self) -> Counters {
        Counters {
            abstractions: 0,
            precision: self.stats.tracked,
        }
    }
}

impl Describe for ValueCpa {
    fn describe(&self, s: &ValueState) -> (StateKind, String) {
        (StateKind::Plain, self.text(s))
    }

    fn kind(&self, _s: &ValueState) -> StateKind {
        StateKind::Plain
    }
}
