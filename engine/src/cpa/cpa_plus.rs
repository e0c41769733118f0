//! CPA++ (Algorithm 2 of the Predicate CPA paper, Beyer/Dangl/Wendler): reached and waitlist
//! in and out, precision adjustment right after the transfer for every new state, merge with
//! reached states, stop, and an `abort` check per added state. Forced covering (`fcover`) is
//! applied by the caller before it calls [`CpaPlus::expand`].
//!
//! The algorithm runs one waitlist pop at a time so that a session can step through it. As the
//! unifying-view digest warns (pitfall 14), `abort` is only consulted for states that were
//! actually added, and SAFE may only be concluded from an empty waitlist; [`CpaPlus::expand`]
//! reports the targets it added and leaves that decision to the driver.

use crate::cfa::{Cfa, Edge};
use crate::cpa::arg::{Arg, ArgId};
use crate::cpa::control::{ControlCpa, Cut};
use crate::cpa::cover_index::{Conditions, CoverIndex};
use crate::cpa::{Describe, MergeKind, StopKind, TransferNote};
use crate::events::{CutReason, Event};
use crate::smt::{Result, Smt};
use std::rc::Rc;

pub struct CpaPlus<D: Describe> {
    pub arg: Arg<D::State, D::Prec>,
    pub control: ControlCpa,
    /// States whose successors were cut by the loop bound or the recursion depth.
    pub cut: Vec<(ArgId, Cut)>,
    /// A new target state is never covered, so every error path reaches the driver (CEGAR
    /// with undecided targets left in the ARG: a target they covered would never be checked).
    pub uncovered_targets: bool,
    /// The stop operator's candidates by the data CPA's cover keys.
    cover: CoverIndex,
    /// The merge operator's candidates by the data CPA's merge keys.
    merge_index: CoverIndex,
}

/// What one expansion did.
#[derive(Debug, Default)]
pub struct Expansion {
    /// Target states (at error locations) that were added to reached.
    pub targets: Vec<ArgId>,
    /// States beyond the recursion bound ([`ControlState::beyond`](crate::cpa::control::ControlState::beyond))
    /// that were added to reached: the driver decides whether their paths are feasible.
    pub cuts: Vec<ArgId>,
}

/// The event of a transfer's note.
fn note_event(parent: ArgId, edge: &Edge, note: TransferNote) -> Event {
    let (parent, edge) = (parent.0, edge.id.0);
    match note {
        TransferNote::Enumerated { values } => Event::Enumerated {
            parent,
            edge,
            values,
            exceeded: None,
        },
        TransferNote::EnumerationExceeded { bound } => Event::Enumerated {
            parent,
            edge,
            values: Vec::new(),
            exceeded: Some(bound),
        },
        TransferNote::SatCheck { satisfiable } => Event::SatCheck {
            parent,
            edge,
            satisfiable,
        },
    }
}

impl<D: Describe> CpaPlus<D> {
    pub fn new(arg: Arg<D::State, D::Prec>, control: ControlCpa) -> CpaPlus<D> {
        CpaPlus {
            arg,
            control,
            cut: Vec::new(),
            uncovered_targets: false,
            cover: CoverIndex::default(),
            merge_index: CoverIndex::default(),
        }
    }

    /// Adds the initial state.
    pub fn init(
        &mut self,
        cfa: &Cfa,
        ctl: crate::cpa::control::ControlState,
        data: D::State,
        prec: Rc<D::Prec>,
        d: &D,
        events: &mut Vec<Event>,
    ) -> ArgId {
        let id = self.arg.add(cfa, ctl.clone(), data, prec, Vec::new(), None);
        let (kind, label) = d.describe(&self.arg.node(id).data);
        events.push(Event::StateAdded {
            state: id.0,
            location: ctl.location.0,
            parents: Vec::new(),
            kind,
            label,
            depth: ctl.depth() as u32,
            target: false,
        });
        id
    }

    /// Expands `e` (already popped): all successors, each adjusted, merged or stopped.
    pub fn expand(
        &mut self,
        cfa: &Cfa,
        d: &mut D,
        smt: &mut dyn Smt,
        e: ArgId,
        events: &mut Vec<Event>,
    ) -> Result<Expansion> {
        let mut out = Expansion::default();
        let node = self.arg.node(e);
        let (ctl, data, prec) = (node.ctl.clone(), node.data.clone(), node.prec.clone());
        if ctl.beyond {
            // Beyond the recursion bound: no successors (the state is a cut, see `cuts`).
            return Ok(out);
        }
        let mut cut_reported = false;
        for edge in cfa.successors(ctl.location) {
            // A state expanded again (after a refinement or a merge elsewhere) keeps the
            // successors it still has: the transfer is deterministic, they would be the same.
            if self.arg.child_via(e, edge.id).is_some() {
                continue;
            }
            let next_ctl = match self.control.successor(cfa, &ctl, edge) {
                Ok(Some(c)) => c,
                Ok(None) => continue,
                Err(cut) => {
                    if !cut_reported {
                        cut_reported = true;
                        self.cut.push((e, cut));
                        let reason = match cut {
                            Cut::LoopBound => CutReason::LoopBound,
                            Cut::RecursionDepth => CutReason::RecursionDepth,
                        };
                        events.push(Event::Cut { state: e.0, reason });
                    }
                    continue;
                }
            };
            let successors = d.transfer(smt, &data, edge, &ctl, &next_ctl, &prec)?;
            if let Some(note) = successors.note {
                events.push(note_event(e, edge, note));
            }
            if successors.states.is_empty() {
                events.push(Event::Infeasible {
                    parent: e.0,
                    edge: edge.id.0,
                });
            }
            for succ in successors.states {
                self.add_successor(
                    cfa, d, smt, e, edge, &next_ctl, succ, &prec, &mut out, events,
                )?;
            }
        }
        Ok(out)
    }

    /// Adjusts one successor of `e` along `edge`, then merges it into a reached state, or
    /// adds it (covered, or into the waitlist).
    #[allow(clippy::too_many_arguments)]
    fn add_successor(
        &mut self,
        cfa: &Cfa,
        d: &mut D,
        smt: &mut dyn Smt,
        e: ArgId,
        edge: &Edge,
        next_ctl: &crate::cpa::control::ControlState,
        succ: D::State,
        prec: &Rc<D::Prec>,
        out: &mut Expansion,
        events: &mut Vec<Event>,
    ) -> Result<()> {
        let Some(adjusted) = d.adjust(smt, succ, next_ctl, prec)? else {
            events.push(Event::Infeasible {
                parent: e.0,
                edge: edge.id.0,
            });
            return Ok(());
        };
        let succ = adjusted.state;
        let (prec, next_ctl) = (prec.clone(), next_ctl.clone());
        let target = cfa.node(next_ctl.location).is_error();
        // merge with reached states of the same control state
        let mut merged_into = None;
        let candidates = if d.merge_kind() == MergeKind::Sep {
            Vec::new()
        } else {
            let conds = Conditions::merge();
            let looked = conds.of(&*d, &succ);
            self.merge_index
                .candidates(&*d, conds, &self.arg, &next_ctl, &looked)
        };
        for r in candidates {
            // Borrowed, not cloned: a location reached in every loop iteration has as many
            // candidates as iterations, and most merges decline at once (values differ).
            let merged = d.merge(smt, &succ, &self.arg.node(r).data)?;
            if let Some(m) = merged {
                let (new, removed) = self
                    .arg
                    .merge_into_new(cfa, r, m, prec.clone(), (e, edge.id));
                let (kind, label) = d.describe(&self.arg.node(new).data);
                let parents = self
                    .arg
                    .node(new)
                    .parents
                    .iter()
                    .map(|(p, x)| (p.0, x.0))
                    .collect();
                events.push(Event::StateAdded {
                    state: new.0,
                    location: next_ctl.location.0,
                    parents,
                    kind,
                    label,
                    depth: next_ctl.depth() as u32,
                    target,
                });
                events.push(Event::Merged {
                    old: r.0,
                    into: new.0,
                    removed: removed.iter().map(|x| x.0).collect(),
                });
                merged_into = Some(new);
                break;
            }
        }
        if let Some(new) = merged_into {
            // The successor is part of the merged state (ARG stop: merged states stop).
            if target {
                out.targets.push(new);
            }
            return Ok(());
        }
        // stop: covered by a reached state?
        let mut covering = None;
        let mut looked = None;
        if d.stop_kind() == StopKind::Sep
            && d.may_cover(&succ)
            && !(target && self.uncovered_targets)
        {
            let conds = Conditions::cover();
            let this = looked.insert(conds.of(&*d, &succ));
            let candidates = self
                .cover
                .candidates(&*d, conds, &self.arg, &next_ctl, this);
            for r in candidates {
                let rd = &self.arg.node(r).data;
                if d.may_cover(rd) && d.covered_by(smt, &succ, rd)? {
                    covering = Some(r);
                    break;
                }
            }
        }
        let id = self.arg.add(
            cfa,
            next_ctl.clone(),
            succ,
            prec.clone(),
            vec![(e, edge.id)],
            covering,
        );
        if let Some(looked) = looked {
            self.cover.taken(id, looked);
        }
        let (kind, label) = d.describe(&self.arg.node(id).data);
        events.push(Event::StateAdded {
            state: id.0,
            location: next_ctl.location.0,
            parents: vec![(e.0, edge.id.0)],
            kind,
            label,
            depth: next_ctl.depth() as u32,
            target,
        });
        if let Some(info) = adjusted.abstraction {
            events.push(Event::Abstraction {
                state: id.0,
                location: next_ctl.location.0,
                formula: info.formula,
                predicates: info.predicates,
                block: info.block,
                queries: info.queries,
            });
        }
        if let Some(by) = covering {
            events.push(Event::Covered {
                state: id.0,
                by: by.0,
            });
        } else if target {
            events.push(Event::TargetReached { state: id.0 });
            out.targets.push(id);
        } else if next_ctl.beyond {
            self.cut.push((id, Cut::RecursionDepth));
            events.push(Event::Cut {
                state: id.0,
                reason: CutReason::RecursionDepth,
            });
            out.cuts.push(id);
        }
        Ok(())
    }
}
