//! The operators of the Predicate CPA (the data component of the composite).

use crate::cfa::{Cfa, Edge, EdgeKind, NodeKind};
use crate::cpa::control::ControlState;
use crate::cpa::{
    AbstractionInfo, Adjusted, Counters, CoverKey, Cpa, Describe, MergeKind, StopKind, Successors,
};
use crate::domains::predicate::abstraction;
use crate::domains::predicate::table::PredicateTable;
use crate::domains::predicate::BlockId;
use crate::domains::predicate::{
    Abs, AbstractionKind, BlockOperator, PredicateConfig, PredicatePrecision, PredicateState,
    Representation,
};
use crate::events::StateKind;
use crate::formula::{Encoder, Encoding, Instances, Names, PathFormula, SsaMap};
use crate::smt::{Result, Sat, Smt};
use crate::text::{clip, clip_all};
use solver_bridge::term::Term;
use std::rc::Rc;

#[derive(Clone, Debug, Default)]
pub struct PredicateStats {
    pub abstractions: u64,
    pub abstraction_queries: u64,
    pub coverage_queries: u64,
}

pub struct PredicateCpa {
    pub cfa: Rc<Cfa>,
    pub cfg: PredicateConfig,
    pub encoding: Encoding,
    pub table: PredicateTable,
    pub names: Names,
    /// The instances of predicates and abstraction formulas at SSA maps, remembered.
    instances: Instances,
    pub stats: PredicateStats,
    /// The next block id (abstraction states are numbered as they are created).
    next_block: u64,
}

impl PredicateCpa {
    pub fn new(cfa: Rc<Cfa>, cfg: PredicateConfig, encoding: Encoding) -> PredicateCpa {
        let names = Names::new(&cfa);
        PredicateCpa {
            cfa,
            cfg,
            encoding,
            table: PredicateTable::new(),
            names,
            instances: Instances::default(),
            stats: PredicateStats::default(),
            next_block: 0,
        }
    }

    fn new_block(&mut self) -> BlockId {
        self.next_block += 1;
        BlockId(self.next_block - 1)
    }

    pub fn encoder(&self) -> Encoder<'_> {
        Encoder::new(&self.cfa, self.encoding)
    }

    pub fn abs_true(&self) -> Abs {
        match self.cfg.representation {
            Representation::Bdd => Abs::Bdd(self.table.bdd_true()),
            Representation::Smt => Abs::Smt(Term::tt()),
        }
    }

    /// The initial state (true, l_INIT, true), an abstraction state.
    pub fn initial_at(&mut self, ctl: &ControlState) -> PredicateState {
        let ssa = SsaMap::default();
        PredicateState {
            abs: self.abs_true(),
            abs_location: ctl.location,
            block_id: self.new_block(),
            intermediate: false,
            pf: PathFormula::empty(ssa.clone()),
            start_ssa: ssa,
            block: None,
        }
    }

    /// ψ as a term over unindexed program variables.
    pub fn abs_term(&self, a: &Abs) -> Term {
        match a {
            Abs::Bdd(b) => self.table.bdd_to_term(b),
            Abs::Smt(t) => t.clone(),
        }
    }

    /// ψ as a text for people (events, labels): clipped to [`crate::text::MAX_TEXT`] bytes.
    pub fn abs_text(&self, a: &Abs) -> String {
        match a {
            Abs::Bdd(b) => self.table.bdd_text(b),
            Abs::Smt(t) => clip(t),
        }
    }

    pub fn abs_is_false(&self, a: &Abs) -> bool {
        match a {
            Abs::Bdd(b) => b.is_false(),
            Abs::Smt(t) => t.is_false(),
        }
    }

    /// blk: does a block end at this control state?
    pub fn is_block_end(&self, ctl: &ControlState) -> bool {
        let node = self.cfa.node(ctl.location);
        if ctl.beyond {
            // A state beyond the recursion bound is refined like a target: it needs an
            // abstraction (whose `false` means the call is unreachable).
            return true;
        }
        match self.cfg.block {
            BlockOperator::Never => false,
            BlockOperator::Sbe => true,
            BlockOperator::LoopHeads => node.loop_head || node.is_error(),
            BlockOperator::LoopHeadsAndFunctions => {
                node.loop_head
                    || node.is_error()
                    || node.kind == NodeKind::FunctionEntry
                    || node
                        .incoming
                        .iter()
                        .any(|e| matches!(self.cfa.edge(*e).kind, EdgeKind::Return { .. }))
            }
        }
    }

    /// ψ instantiated at the block start, conjoined with the block formula φ. The variables
    /// ψ speaks of are within their types' ranges at the block start (every state of a run
    /// is): without that, ψ = `j == 2 * i` (modulo 2^32, in the integer encoding) allowed
    /// `i = 2^33` and did not imply itself after `i++; j += 2`.
    pub fn block_query(&self, s: &PredicateState) -> Term {
        let enc = self.encoder();
        let abs = self.abs_term(&s.abs);
        let ranged = Term::and(std::iter::once(abs.clone()).chain(self.ranges_of(&abs)));
        let (psi, extra) = self
            .instances
            .instantiate(&enc, &self.names, &ranged, &s.start_ssa);
        let mut parts = vec![psi, s.pf.formula.clone()];
        parts.extend(extra);
        Term::and(parts)
    }

    /// The range constraints of the program variables of an unindexed formula (Int encoding).
    pub fn ranges_of(&self, t: &Term) -> Vec<Term> {
        let enc = self.encoder();
        t.free_vars()
            .into_iter()
            .filter_map(|v| {
                let slot = self.names.slot(&v.name)?;
                Some(enc.range(&v.term(), self.cfa.var(slot.var).ty))
            })
            .collect()
    }

    /// `a ⇒ b` for unindexed formulas, by one solver query.
    pub fn implies(&mut self, smt: &mut dyn Smt, a: &Term, b: &Term) -> Result<bool> {
        if b.is_true() || a.is_false() || a == b {
            return Ok(true);
        }
        let mut parts = vec![a.clone(), Term::not(b.clone())];
        parts.extend(self.ranges_of(a));
        parts.extend(self.ranges_of(b));
        self.stats.coverage_queries += 1;
        Ok(smt.check(&parts)? == Sat::Unsat)
    }

    fn compute_abstraction(
        &mut self,
        smt: &mut dyn Smt,
        s: PredicateState,
        ctl: &ControlState,
        prec: &PredicatePrecision,
    ) -> Result<Option<Adjusted<PredicateState>>> {
        let location = ctl.location;
        let query = self.block_query(&s);
        let enc = self.encoder();
        let mut sat_check = self.cfg.sat_check_empty;
        let mut preds: Vec<(usize, Term)> = Vec::new();
        let mut extra = Vec::new();
        for i in prec.at(location) {
            let p = self.table.get(i);
            if p.is_false() {
                // The predicate `false` (π(l_ERR) after a refinement): a satisfiability check.
                sat_check = true;
                continue;
            }
            let (pi, ex) = self.instances.instantiate(&enc, &self.names, p, &s.pf.ssa);
            extra.extend(ex);
            preds.push((i, pi));
        }
        let formula = if extra.is_empty() {
            query
        } else {
            Term::and(std::iter::once(query).chain(extra))
        };
        self.stats.abstractions += 1;
        let before = smt.queries();
        let bdd = if preds.is_empty() {
            if sat_check && smt.check(std::slice::from_ref(&formula))? == Sat::Unsat {
                None
            } else {
                Some(self.table.bdd_true())
            }
        } else {
            let r = match self.cfg.abstraction {
                AbstractionKind::Boolean => {
                    abstraction::boolean(smt, &self.table, &formula, &preds, self.cfg.allsat_limit)?
                }
                AbstractionKind::Cartesian => {
                    abstraction::cartesian(smt, &self.table, &formula, &preds)?
                }
            };
            r.bdd
        };
        let queries = (smt.queries() - before) as u32;
        self.stats.abstraction_queries += u64::from(queries);
        let Some(bdd) = bdd else { return Ok(None) };
        let abs = match self.cfg.representation {
            Representation::Bdd => Abs::Bdd(bdd),
            Representation::Smt => Abs::Smt(self.table.bdd_to_term(&bdd)),
        };
        let info = AbstractionInfo {
            formula: self.abs_text(&abs),
            predicates: clip_all(
                &prec
                    .at(location)
                    .into_iter()
                    .map(|i| self.table.get(i))
                    .collect::<Vec<_>>(),
            ),
            block: clip(&s.pf.formula),
            queries,
        };
        let ssa = s.pf.ssa.clone();
        let state = PredicateState {
            abs,
            abs_location: location,
            block_id: self.new_block(),
            intermediate: false,
            pf: PathFormula {
                formula: Term::tt(),
                ssa: ssa.clone(),
                approximated: s.pf.approximated,
            },
            start_ssa: ssa,
            block: Some(s.pf),
        };
        Ok(Some(Adjusted {
            state,
            abstraction: Some(info),
        }))
    }
}

/// The components of [`PredicateCpa`]'s merge keys: above every slot component
/// ([`crate::cpa::slot_component`]), so that a composite may append them to its own.
pub const BLOCK_COMPONENT: u64 = u64::MAX - 1;
pub const ABSTRACTION_COMPONENT: u64 = u64::MAX;

impl Cpa for PredicateCpa {
    type State = PredicateState;
    type Prec = PredicatePrecision;

    fn initial_state(&mut self, ctl: &ControlState) -> PredicateState {
        self.initial_at(ctl)
    }

    /// The strongest postcondition of the path formula (purely syntactic, no solver).
    fn transfer(
        &mut self,
        _smt: &mut dyn Smt,
        s: &PredicateState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
        _prec: &PredicatePrecision,
    ) -> Result<Successors<PredicateState>> {
        let pf = self.encoder().sp(&s.pf, edge, from, to);
        Ok(Successors::one(PredicateState {
            abs: s.abs.clone(),
            abs_location: s.abs_location,
            block_id: s.block_id,
            intermediate: true,
            pf,
            start_ssa: s.start_ssa.clone(),
            block: None,
        }))
    }

    fn adjust(
        &mut self,
        smt: &mut dyn Smt,
        s: PredicateState,
        ctl: &ControlState,
        prec: &PredicatePrecision,
    ) -> Result<Option<Adjusted<PredicateState>>> {
        if !self.is_block_end(ctl) {
            return Ok(Some(Adjusted {
                state: s,
                abstraction: None,
            }));
        }
        self.compute_abstraction(smt, s, ctl, prec)
    }

    fn merge_kind(&self) -> MergeKind {
        MergeKind::Block
    }

    fn merge(
        &mut self,
        _smt: &mut dyn Smt,
        new: &PredicateState,
        reached: &PredicateState,
    ) -> Result<Option<PredicateState>> {
        if new.intermediate && reached.intermediate && new.block_id == reached.block_id {
            let pf = self.encoder().merge(&reached.pf, &new.pf);
            Ok(Some(PredicateState {
                pf,
                ..reached.clone()
            }))
        } else {
            Ok(None)
        }
    }

    /// Only intermediate states of one block merge: the block, or a mark for an abstraction
    /// state (which merges with nothing).
    fn merge_key(&self, s: &PredicateState) -> Option<CoverKey> {
        Some(if s.intermediate {
            vec![(BLOCK_COMPONENT, s.block_id.0)]
        } else {
            vec![(ABSTRACTION_COMPONENT, 0)]
        })
    }

    fn stop_kind(&self) -> StopKind {
        if self.cfg.block == BlockOperator::Never {
            StopKind::Never
        } else {
            StopKind::Sep
        }
    }

    fn may_cover(&self, s: &PredicateState) -> bool {
        s.is_abstraction() && self.cfg.block != BlockOperator::Never
    }

    fn counters(&self) -> Counters {
        Counters {
            abstractions: self.stats.abstractions,
            precision: self.table.len() as u64,
        }
    }

    fn covered_by(
        &mut self,
        smt: &mut dyn Smt,
        s: &PredicateState,
        by: &PredicateState,
    ) -> Result<bool> {
        match (&s.abs, &by.abs) {
            (Abs::Bdd(a), Abs::Bdd(b)) => Ok(crate::domains::predicate::table::implies(a, b)),
            (a, b) => {
                let (ta, tb) = (self.abs_term(a), self.abs_term(b));
                self.implies(smt, &ta, &tb)
            }
        }
    }
}

impl Describe for PredicateCpa {
    fn describe(&self, s: &PredicateState) -> (StateKind, String) {
        match self.kind(s) {
            StateKind::Abstraction => (StateKind::Abstraction, self.abs_text(&s.abs)),
            k => (k, String::new()),
        }
    }

    fn kind(&self, s: &PredicateState) -> StateKind {
        if s.is_abstraction() && self.cfg.block != BlockOperator::Never {
            StateKind::Abstraction
        } else {
            StateKind::Intermediate
        }
    }
}
