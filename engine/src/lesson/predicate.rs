//! The predicate question of a lesson: "which predicate will the next refinement add?". The
//! student types a C expression; it is judged with the solver, never by comparing text. It is
//! accepted at a location where the refinement adds predicates if it is equivalent there to
//! one of them (or to its negation: predicate abstraction tracks both), or if it is an
//! interpolant of the spurious path at that point (implied by the path's start, and together
//! with the rest of the path unsatisfiable), which is what the refinement's predicates are
//! taken from (sequence interpolants: "Lazy Abstraction with Interpolants" / the unifying-view
//! paper's refinement, Algorithm 4 of "A Unifying View on SMT-Based Software Verification").
//!
//! Everything the judge needs is in the run's events (the path's block formulas, the states'
//! locations, the predicates added), so the page sends that slice to its worker and the CLI
//! and the tests call the same function.

use crate::cfa::{Cfa, NodeId};
use crate::events::Event;
use crate::formula::encode::{Builder, Encoding};
use crate::formula::ssa::split_indexed;
use crate::formula::{Encoder, Frames, Names, SsaMap};
use crate::smt::{Sat, Smt};
use serde::{Deserialize, Serialize};
use solver_bridge::parse::{parse_term, Declarations};
use solver_bridge::term::{Sort, Term};

/// The next refinement after a point of a run: the spurious path and what it adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefinementPath {
    /// The refinement's number (from 1).
    pub refinement: u32,
    /// The CFA location of each state of the path (the first is the root).
    pub locations: Vec<u32>,
    /// The block formula into each state after the first (SMT-LIB, SSA-indexed).
    pub blocks: Vec<String>,
    /// The predicates added, by location (SMT-LIB, unindexed).
    pub added: Vec<(u32, String)>,
}

/// The refinement that comes first after `position` in `events` (a whole run), if the run
/// has one: its spurious path and the predicates it adds.
pub fn next_refinement(events: &[Event], position: usize) -> Option<RefinementPath> {
    let start = position.min(events.len());
    let (at, states, blocks) = events[start..]
        .iter()
        .enumerate()
        .find_map(|(i, e)| match e {
            Event::Counterexample {
                states,
                blocks,
                feasible: false,
                ..
            } => Some((start + i, states.clone(), blocks.clone())),
            _ => None,
        })?;
    let mut added = Vec::new();
    let mut refinement = None;
    for e in &events[at..] {
        match e {
            Event::PrecisionRefined { added: a } => added.extend(a.iter().cloned()),
            Event::Refined { refinement: k, .. } => {
                refinement = Some(*k);
                break;
            }
            _ => {}
        }
    }
    let location_of = |s: u32| {
        events[..at].iter().rev().find_map(|e| match e {
            Event::StateAdded {
                state, location, ..
            } if *state == s => Some(*location),
            _ => None,
        })
    };
    let locations = states
        .iter()
        .map(|s| location_of(*s))
        .collect::<Option<Vec<u32>>>()?;
    added.retain(|(_, p)| p != "false" && p != "true");
    Some(RefinementPath {
        refinement: refinement?,
        locations,
        blocks,
        added,
    })
}

/// [`judge`] on the program `source` under the run's configuration `config` (its encoding);
/// `Err` also when the program does not parse.
pub fn judge_program(
    file: &str,
    source: &str,
    config: &crate::session::config::Config,
    path: &RefinementPath,
    answer: &str,
    smt: &mut dyn Smt,
) -> Result<Judgement, String> {
    let cfa = crate::frontend::parse_program(file, source)
        .map_err(|_| "the program does not parse".to_string())?
        .cfa;
    let encoding = config.encoding.resolve(&cfa);
    judge(&cfa, encoding, path, answer, smt)
}

/// The judgement of an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    pub accepted: bool,
    /// Why, for the student.
    pub why: String,
}

/// Largest answer accepted (bytes): it comes from a text field.
pub const MAX_ANSWER_BYTES: usize = 500;

/// Judges `answer` (a C expression) against the refinement `path` of the program `cfa` under
/// `encoding` (the run's). `Err` says why it cannot be judged (not a C expression over the
/// variables in scope, the solver failed).
pub fn judge(
    cfa: &Cfa,
    encoding: Encoding,
    path: &RefinementPath,
    answer: &str,
    smt: &mut dyn Smt,
) -> Result<Judgement, String> {
    if answer.len() > MAX_ANSWER_BYTES {
        return Err(format!("at most {MAX_ANSWER_BYTES} bytes"));
    }
    let locations: Vec<NodeId> = {
        let mut ls: Vec<u32> = path.added.iter().map(|(l, _)| *l).collect();
        ls.sort_unstable();
        ls.dedup();
        ls.into_iter()
            .filter(|l| (*l as usize) < cfa.nodes.len())
            .map(NodeId)
            .collect()
    };
    if locations.is_empty() {
        return Err("the refinement adds no predicate to ask about".into());
    }
    let enc = Encoder::new(cfa, encoding);
    let names = Names::new(cfa);
    let decls = declarations(cfa, &enc, &names, path)?;
    let parse = |t: &str| parse_term(t, &decls).map_err(|e| format!("the run's formula: {e}"));
    let blocks: Vec<Term> = path
        .blocks
        .iter()
        .map(|b| parse(b))
        .collect::<Result<_, _>>()?;
    let unsat = |smt: &mut dyn Smt, fs: &[Term]| -> Result<bool, String> {
        match smt.check(fs).map_err(|e| e.to_string())? {
            Sat::Unsat => Ok(true),
            Sat::Sat => Ok(false),
            Sat::Unknown(r) => Err(format!("the solver could not decide: {r}")),
        }
    };
    let mut why_not = Vec::new();
    for l in &locations {
        let node = cfa.node(*l);
        let line = node.line;
        let expr = crate::frontend::invariant::parse_invariant(cfa, node.function, answer)
            .map_err(|e| format!("at line {line}: {e}"))?;
        // Equivalent to one of the predicates added here (or to its negation)?
        let (mine, ranges) = encode_at(cfa, &enc, *l, &expr, SsaMap::default());
        for (_, p) in path.added.iter().filter(|(at, _)| *at == l.0) {
            let (theirs, more) = enc.instantiate(&names, &parse(p)?, &SsaMap::default());
            let mut base: Vec<Term> = ranges.iter().chain(&more).cloned().collect();
            base.push(Term::not(Term::eq(mine.clone(), theirs.clone())));
            if unsat(smt, &base)? {
                return Ok(Judgement {
                    accepted: true,
                    why: format!("at line {line} it is one of the predicates refinement {} adds, up to equivalence", path.refinement),
                });
            }
            base.pop();
            base.push(Term::eq(mine.clone(), theirs));
            if unsat(smt, &base)? {
                return Ok(Judgement {
                    accepted: true,
                    why: format!("at line {line} it is the negation of a predicate refinement {} adds: the abstraction tracks both", path.refinement),
                });
            }
        }
        // An interpolant of the path at a state at this location?
        for (i, loc) in path.locations.iter().enumerate().skip(1) {
            if *loc != l.0 || i >= path.locations.len() - 1 {
                continue;
            }
            let ssa = ssa_after(&names, &blocks[..i]);
            // The values at the cut are program values: in their types' ranges.
            let in_range: Vec<Term> = ssa
                .iter()
                .map(|(slot, idx)| enc.range(&enc.symbol(slot, idx), cfa.var(slot.var).ty))
                .collect();
            let (t, mut ranges) = encode_at(cfa, &enc, *l, &expr, ssa);
            ranges.extend(in_range);
            let mut prefix: Vec<Term> = blocks[..i].to_vec();
            prefix.extend(ranges.iter().cloned());
            prefix.push(Term::not(t.clone()));
            let implied = unsat(smt, &prefix)?;
            let mut suffix: Vec<Term> = blocks[i..].to_vec();
            suffix.extend(ranges);
            suffix.push(t);
            let blocks_error = unsat(smt, &suffix)?;
            if implied && blocks_error {
                return Ok(Judgement {
                    accepted: true,
                    why: format!(
                        "at line {line} the path's start implies it, and with it the rest of the path \
                         cannot reach the error: an interpolant, which is what refinement {} takes its \
                         predicates from",
                        path.refinement
                    ),
                });
            }
            why_not.push(if !implied {
                format!("at line {line} the spurious path's start does not imply it")
            } else {
                format!("at line {line} the rest of the path still reaches the error with it")
            });
        }
    }
    if why_not.is_empty() {
        why_not.push("it is not equivalent to a predicate the refinement adds".into());
    }
    Ok(Judgement {
        accepted: false,
        why: format!(
            "it is neither a predicate refinement {} adds nor an interpolant of its path ({})",
            path.refinement,
            why_not.join("; ")
        ),
    })
}

/// `e` encoded as a condition at location `l` with the SSA indices `ssa`, and the range
/// constraints of the variables it reads first.
fn encode_at(
    cfa: &Cfa,
    enc: &Encoder,
    l: NodeId,
    e: &crate::ir::Expr,
    ssa: SsaMap,
) -> (Term, Vec<Term>) {
    let ctl = crate::cpa::control::ControlState::at(l);
    let mut b = Builder::new(ssa, Frames::of(cfa, &ctl));
    let t = enc.cond(&mut b, e);
    (t, b.constraints.clone())
}

/// The SSA map at the end of the blocks `prefix`: each variable at its highest index there.
fn ssa_after(names: &Names, prefix: &[Term]) -> SsaMap {
    let mut ssa = SsaMap::default();
    for v in solver_bridge::term::vars_of(prefix) {
        if let Some((base, idx)) = split_indexed(&v.name) {
            if let Some(slot) = names.slot(base) {
                if ssa.get(slot).is_none_or(|i| i < idx) {
                    ssa.set(slot, idx);
                }
            }
        }
    }
    ssa
}

/// The sorts of the symbols the path's formulas mention: program variables (indexed or not)
/// by their types under the encoding, auxiliary values as integers.
fn declarations(
    cfa: &Cfa,
    enc: &Encoder,
    names: &Names,
    path: &RefinementPath,
) -> Result<Declarations, String> {
    let mut d = Declarations::default();
    let texts = path.blocks.iter().chain(path.added.iter().map(|(_, p)| p));
    for t in texts {
        for name in quoted_symbols(t) {
            let base = split_indexed(name).map_or(name, |(b, _)| b);
            let sort = if base.starts_with("__aux") {
                Sort::Int
            } else {
                let slot = names
                    .slot(base)
                    .ok_or_else(|| format!("the run's formula names '{name}', no variable"))?;
                enc.sort(cfa.var(slot.var).ty)
            };
            d.declare(name, sort)?;
        }
    }
    Ok(d)
}

/// The `|...|`-quoted symbols of an SMT-LIB text.
fn quoted_symbols(t: &str) -> impl Iterator<Item = &str> {
    t.split('|').skip(1).step_by(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::config::Config;
    use crate::session::Session;
    use crate::smt::BridgeSmt;
    use solver_bridge::solver::NativeZ3;
    use std::rc::Rc;

    const FIG2: &str = "extern void reach_error(void);\nint main(void) {\n  int x = 0;\n  int y = 0;\n  while (x < 2) {\n    x++;\n    y++;\n    if (x != y) {\n      reach_error();\n    }\n  }\n  return 0;\n}\n";

    #[test]
    fn answers_are_judged_by_equivalence_or_as_interpolants_of_the_path() {
        let cfa = Rc::new(crate::frontend::parse_program("fig2.c", FIG2).unwrap().cfa);
        let config = Config::preset("predicate-lbe").unwrap();
        let encoding = config.encoding.resolve(&cfa);
        let smt = Box::new(BridgeSmt::new(NativeZ3::new().expect("the tests need z3")));
        let mut s = Session::new(cfa.clone(), config, smt);
        s.run();
        let path = next_refinement(s.events(), 0).expect("a refinement");
        assert_eq!(path.refinement, 1);
        assert_eq!(path.locations.len(), path.blocks.len() + 1);
        let mut smt = BridgeSmt::new(NativeZ3::new().unwrap());
        let mut judge = |a: &str| judge(&cfa, encoding, &path, a, &mut smt).unwrap();
        // The loop invariant is an interpolant at the loop head; so is it written otherwise.
        for a in ["x == y", "y == x", "!(x != y)", "x - y == 0"] {
            let j = judge(a);
            assert!(j.accepted, "{a}: {}", j.why);
            assert!(j.why.contains("interpolant"), "{a}: {}", j.why);
        }
        // One of the atoms the refinement adds (2 > x), and its negation.
        for a in ["x < 2", "x <= 1", "x >= 2"] {
            let j = judge(a);
            assert!(j.accepted, "{a}: {}", j.why);
            assert!(j.why.contains("predicate"), "{a}: {}", j.why);
        }
        for a in ["x <= 5", "y > 0", "x == 0"] {
            assert!(!judge(a).accepted, "{a}");
        }
        assert!(super::judge(&cfa, encoding, &path, "k == 1", &mut smt).is_err());
        // After the last refinement there is none to ask about.
        assert!(next_refinement(s.events(), s.events().len()).is_none());
    }
}
