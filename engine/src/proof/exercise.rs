//! The invariant exercise: a loop invariant a student proposes at one loop head, checked in
//! the three parts a textbook proof has, each with a counterexample when it fails:
//!
//! 1. **initiation**: every path from the program's start to the loop head arrives in a state
//!    that satisfies the invariant;
//! 2. **consecution**: from any state at the loop head that satisfies it, every path around
//!    the loop back to the head arrives in a state that satisfies it again (a counterexample
//!    to induction: the state before and after the iteration);
//! 3. **sufficiency**: from any state at the loop head that satisfies it, no path reaches an
//!    error location (and no path from the start reaches one before the loop).
//!
//! The blocks are those of the certificate check (every loop head ends one), encoded exactly
//! (the program's wrap-around semantics). Other loop heads carry no invariant: a block from
//! one starts with any values, which the report says.

use crate::cfa::{Cfa, NodeId};
use crate::formula::encode::Builder;
use crate::formula::{literal_value, Encoder, Frames, PathFormula, SsaMap};
use crate::ir::Expr;
use crate::proof::certificate::blocks_from;
use crate::proof::induction::{invariant_at, setup};
use crate::smt::{Result, Sat, Smt};
use serde::{Deserialize, Serialize};
use solver_bridge::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// One part of the check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Part {
    Holds,
    /// Why it fails, with the values of the loop's function's variables before the path
    /// (empty for a path from the program's start) and at its end, as decimal text (a
    /// JSON number could not carry every 64-bit value to the page).
    Fails {
        why: String,
        before: Vec<(String, String)>,
        after: Vec<(String, String)>,
    },
    /// The solver could not decide (a resource limit), or the blocks cannot be followed.
    Unknown {
        why: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub initiation: Part,
    pub consecution: Part,
    pub sufficiency: Part,
}

impl Report {
    /// The invariant proves the program: all three parts hold.
    pub fn proves(&self) -> bool {
        [&self.initiation, &self.consecution, &self.sufficiency]
            .iter()
            .all(|p| **p == Part::Holds)
    }
}

/// Most block starts followed (call stacks multiply loop heads).
const MAX_STARTS: usize = 1_000;

/// The loop head at source line `line` (the first one, in the CFA's order).
pub fn loop_head_at_line(cfa: &Cfa, line: u32) -> Option<NodeId> {
    cfa.nodes
        .iter()
        .find(|n| n.loop_head && n.line == line)
        .map(|n| n.id)
}

/// Which part an obligation belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Initiation,
    Consecution,
    Sufficiency,
}

/// Checks `inv` (with its text `text`) at the loop head `head`.
pub fn check(cfa: &Cfa, smt: &mut dyn Smt, head: NodeId, inv: &Expr, text: &str) -> Result<Report> {
    let invariants = BTreeMap::from([(head, vec![(inv.clone(), text.to_string())])]);
    let (encoding, enc, control) = setup(cfa, &invariants);
    let is_end = |c: &crate::cpa::control::ControlState| c.beyond || cfa.node(c.location).loop_head;
    let initial = control.initial(cfa);
    let mut parts: BTreeMap<u8, Part> = BTreeMap::new();
    let mut seen = BTreeSet::from([initial.clone()]);
    let mut todo = vec![initial.clone()];
    let line = |n: NodeId| cfa.node(n).line;
    while let Some(start) = todo.pop() {
        let at_head = start.location == head;
        let (assumed, extra, ssa) = if at_head {
            invariant_at(cfa, &enc, &invariants, &start, &SsaMap::default()).unwrap_or((
                Term::bool(true),
                vec![],
                SsaMap::default(),
            ))
        } else {
            (Term::bool(true), vec![], SsaMap::default())
        };
        let from = if start == initial {
            "the program's start".to_string()
        } else if at_head {
            "a state at the loop that satisfies the invariant".to_string()
        } else {
            format!(
                "the loop at line {} (with any values)",
                line(start.location)
            )
        };
        let blocks = match blocks_from(
            cfa,
            encoding,
            &is_end,
            &control,
            &start,
            PathFormula::empty(ssa.clone()),
        ) {
            Ok(b) => b,
            Err(e) => {
                return Ok(all_unknown(e.to_string()));
            }
        };
        for (end, pf) in blocks {
            let node = cfa.node(end.location);
            if end.beyond {
                return Ok(all_unknown("a recursion deeper than the bound".into()));
            }
            if !node.is_error() && seen.insert(end.clone()) {
                if seen.len() > MAX_STARTS {
                    return Ok(all_unknown(format!(
                        "more than {MAX_STARTS} loop heads (with their call stacks) are reachable"
                    )));
                }
                todo.push(end.clone());
            }
            let mut q = vec![assumed.clone(), pf.formula.clone()];
            q.extend(extra.iter().cloned());
            let (kind, why) = if node.is_error() {
                (
                    Kind::Sufficiency,
                    format!("a path from {from} reaches the error at line {}", node.line),
                )
            } else if end.location == head {
                let Some((t, more, _)) = invariant_at(cfa, &enc, &invariants, &end, &pf.ssa) else {
                    continue;
                };
                q.push(Term::not(t));
                q.extend(more);
                if at_head {
                    (
                        Kind::Consecution,
                        "one iteration from a state that satisfies the invariant ends in one \
                         that does not"
                            .to_string(),
                    )
                } else {
                    (
                        Kind::Initiation,
                        format!("a path from {from} arrives at the loop violating it"),
                    )
                }
            } else {
                continue;
            };
            let slot = kind as u8;
            if parts.contains_key(&slot) {
                continue;
            }
            match smt.check(&q)? {
                Sat::Unsat => {}
                Sat::Sat => {
                    let before_terms = model_terms(cfa, &enc, &start, &ssa, head);
                    let after_terms = model_terms(cfa, &enc, &end, &pf.ssa, head);
                    let before = if start == initial {
                        Vec::new()
                    } else {
                        model(smt, &q, before_terms)?
                    };
                    let after = if node.is_error() {
                        Vec::new()
                    } else {
                        model(smt, &q, after_terms)?
                    };
                    parts.insert(slot, Part::Fails { why, before, after });
                }
                Sat::Unknown(r) => {
                    parts.insert(
                        slot,
                        Part::Unknown {
                            why: format!("solver: {r}"),
                        },
                    );
                }
            }
        }
    }
    let mut take = |k: Kind| parts.remove(&(k as u8)).unwrap_or(Part::Holds);
    Ok(Report {
        initiation: take(Kind::Initiation),
        consecution: take(Kind::Consecution),
        sufficiency: take(Kind::Sufficiency),
    })
}

fn all_unknown(why: String) -> Report {
    Report {
        initiation: Part::Unknown { why: why.clone() },
        consecution: Part::Unknown { why: why.clone() },
        sufficiency: Part::Unknown { why },
    }
}

/// The user variables of the loop's function and the globals, each with its term at a
/// control state's SSA indices.
fn model_terms(
    cfa: &Cfa,
    enc: &Encoder,
    ctl: &crate::cpa::control::ControlState,
    ssa: &SsaMap,
    head: NodeId,
) -> Vec<(String, crate::ir::IntType, Term)> {
    let func = cfa.node(head).function;
    let mut b = Builder::without_read_ranges(ssa.clone(), Frames::of(cfa, ctl));
    cfa.vars
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.synthetic && v.function.is_none_or(|f| f == func))
        .filter(|(_, v)| !v.name.contains('@') && !v.name.contains('#'))
        .map(|(i, v)| {
            let e = Expr::var(crate::ir::VarId(i as u32), v.ty);
            (v.name.clone(), v.ty, enc.expr(&mut b, &e))
        })
        .collect()
}

/// The values of `terms` in a model of `q`.
fn model(
    smt: &mut dyn Smt,
    q: &[Term],
    terms: Vec<(String, crate::ir::IntType, Term)>,
) -> Result<Vec<(String, String)>> {
    let ts: Vec<Term> = terms.iter().map(|(_, _, t)| t.clone()).collect();
    let Some(vals) = smt.model(q, &ts)? else {
        return Ok(Vec::new());
    };
    Ok(terms
        .iter()
        .zip(vals)
        .filter_map(|((n, ty, _), v)| literal_value(&v, *ty).map(|x| (n.clone(), x.to_string())))
        .collect())
}
