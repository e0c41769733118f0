//! Proofs with function summaries, for recursive programs: no depth bound limits them.
//!
//! The recursive functions get contracts, intervals of their return values
//! ([`crate::invariants::intervals::return_intervals`], a fixpoint over the calls), and the proof is
//! assume-guarantee ([`crate::cfa::transform::contracts`]): with every call of a recursive function
//! replaced by its contract,
//!
//! 1. `main` is safe: the correctness-witness check ([`crate::witness::correctness`]) of the
//!    octagon invariants at its loop heads, error excluded, confirms it;
//! 2. every recursive function `f` establishes its contract: the same check on the program
//!    that starts at `f`'s entry (any arguments and globals), with the contract as the
//!    invariant at `f`'s exit (over its return value) and the error excluded there too (an
//!    error inside `f` is reachable from some call, or not at all from any arguments).
//!
//! By induction over the order in which calls return, every call of a run returns a value
//! its contract allows, and no run reaches the error: the checks are the proof (the
//! block-abstraction view of procedure summaries in "Software Verification with Block
//! Abstraction Memoization" by Wonisch and Wehrheim, here with interval contracts).

use crate::cfa::transform::contracts::{recursive, summarized, with_main};
use crate::cfa::{Cfa, NodeId};
use crate::invariants::intervals::{return_intervals, within, Interval};
use crate::ir::{Expr, FuncId};
use crate::proof::Outcome;
use crate::smt::{Result, Smt};
use std::collections::BTreeMap;

/// A proof: the contracts and the loop invariants it rests on.
#[derive(Clone, Debug)]
pub struct Proof {
    pub contracts: BTreeMap<FuncId, Interval>,
    /// The contracts as conditions over the return variables ([`posts`]).
    pub posts: BTreeMap<FuncId, Expr>,
    /// Octagon invariants at `main`'s loop heads (in the summarised program).
    pub invariants: BTreeMap<NodeId, Expr>,
}

/// The contracts the proof would rest on: the return intervals of the recursive functions
/// that say something (empty: nothing to try).
pub fn contracts(cfa: &Cfa) -> BTreeMap<FuncId, Interval> {
    let rec = recursive(cfa);
    if rec.is_empty() {
        return BTreeMap::new();
    }
    return_intervals(cfa)
        .into_iter()
        .filter(|(f, i)| {
            rec.contains(f)
                && cfa
                    .function(*f)
                    .ret
                    .is_some_and(|(ty, _)| i.narrower_than(ty))
        })
        .collect()
}

/// The contracts as conditions over the functions' return variables (`None`: a function
/// without a return value, or an interval its return type cannot state).
pub fn posts(cfa: &Cfa, contracts: &BTreeMap<FuncId, Interval>) -> Option<BTreeMap<FuncId, Expr>> {
    contracts
        .iter()
        .map(|(&f, &i)| {
            let (ty, retval) = cfa.function(f).ret?;
            Some((f, within(Expr::var(retval, ty), i)?))
        })
        .collect()
}

/// The assume-guarantee check of `posts` (see the module documentation): `check` is called on
/// the program with every call replaced by its contract, then on each function's body (the
/// same replacement, the program starting at the function's entry) with the function and its
/// contract, which must hold at its exit. The first outcome that is not a confirmation is the
/// answer (a refutation names the contract).
pub fn assume_guarantee(
    cfa: &Cfa,
    posts: &BTreeMap<FuncId, Expr>,
    mut check: impl FnMut(&Cfa, Option<(FuncId, &Expr)>) -> Result<Outcome>,
) -> Result<Outcome> {
    let program = summarized(cfa, posts);
    match check(&program, None)? {
        Outcome::Confirmed => {}
        other => return Ok(other),
    }
    for (&f, post) in posts {
        match check(&with_main(&program, f), Some((f, post)))? {
            Outcome::Confirmed => {}
            Outcome::Refuted(why) => {
                return Ok(Outcome::Refuted(format!(
                    "with the calls replaced by the contracts, from the entry of '{}': {why}",
                    cfa.function(f).name
                )))
            }
            other => return Ok(other),
        }
    }
    Ok(Outcome::Confirmed)
}

/// Tries the proof with `contracts` (those of [`contracts`]); `Ok(None)`: some check did
/// not confirm (then nothing is claimed).
pub fn prove(
    cfa: &Cfa,
    contracts: BTreeMap<FuncId, Interval>,
    smt: &mut dyn Smt,
) -> Result<Option<Proof>> {
    if contracts.is_empty() {
        return Ok(None);
    }
    let Some(posts) = posts(cfa, &contracts) else {
        return Ok(None);
    };
    let mut main_invs = BTreeMap::new();
    let outcome = assume_guarantee(cfa, &posts, |program, contract| {
        let mut invs = crate::invariants::octagon::loop_invariants(program);
        if contract.is_none() {
            main_invs = invs
                .iter()
                .filter(|(l, _)| program.node(**l).function == program.main)
                .map(|(l, e)| (*l, e.clone()))
                .collect();
        }
        if let Some((f, post)) = contract {
            invs.insert(program.function(f).exit, post.clone());
        }
        crate::proof::induction::check_up_to(
            program,
            smt,
            &crate::proof::induction::with_texts(program, &invs),
            true,
            1,
        )
    })?;
    Ok((outcome == Outcome::Confirmed).then_some(Proof {
        contracts,
        posts,
        invariants: main_invs,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;
    use crate::test_util::verdict_program;

    fn proof(name: &str) -> (Cfa, Option<Proof>) {
        let (cfa, mut smt) = verdict_program(name);
        let p = prove(&cfa, contracts(&cfa), &mut smt).unwrap();
        (cfa, p)
    }

    #[test]
    fn contracts_prove_a_mutual_recursion_over_any_input() {
        let (cfa, p) = proof("recursion-contract-safe");
        let p = p.expect("a proof");
        let names: Vec<(String, i128, i128)> = p
            .contracts
            .iter()
            .map(|(f, i)| (cfa.function(*f).name.clone(), i.lo, i.hi))
            .collect();
        assert_eq!(
            names,
            vec![("id".to_string(), 0, 2), ("id2".to_string(), 0, 2)]
        );
    }

    /// Each unsafe twin breaks one part of the argument that a wrong proof would skip: main
    /// with the contracts, the error inside the recursive function, a global the calls
    /// change.
    #[test]
    fn no_proof_for_unsafe_recursion() {
        for name in [
            "recursion-contract-unsafe",
            "recursion-contract-inside-unsafe",
            "recursion-contract-global-unsafe",
        ] {
            let (cfa, p) = proof(name);
            assert!(
                !contracts(&cfa).is_empty(),
                "{name}: the test needs contracts to try"
            );
            assert!(p.is_none(), "{name}: {p:?}");
        }
    }

    #[test]
    fn programs_without_recursion_get_no_contracts() {
        let src = "extern void reach_error(void);\nint f(int x) { return x > 3 ? 3 : x; }\nint main(void) { if (f(5) > 3) reach_error(); return 0; }\n";
        let cfa = parse_program("t.c", src).unwrap().cfa;
        assert!(contracts(&cfa).is_empty());
    }
}
