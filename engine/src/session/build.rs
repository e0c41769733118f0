//! Builds the analysis a configuration asks for: the data CPA, the algorithm around it, the
//! refiner and the certificate check. An analysis is a composition chosen here from the typed
//! configuration; adding a CPA means adding its module and a variant here, not editing the
//! algorithms.

use crate::algorithm::bmc::Bmc;
use crate::algorithm::cegar::{Cegar, Parts};
use crate::algorithm::kinduction::KInduction;
use crate::algorithm::overflow::OverflowChecked;
use crate::algorithm::undefined::UndefinedChecked;
use crate::algorithm::unroll::Unrolling;
use crate::cfa::Cfa;
use crate::concrete::execution::Execution;
use crate::cpa::algorithm::Algorithm;
use crate::cpa::{Cpa, Describe};
use crate::domains::predicate::PredicateCpa;
use crate::domains::symbolic::SymbolicCpa;
use crate::domains::value::ValueCpa;
use crate::domains::value_predicate::ValuePredicateCpa;
use crate::proof::certificate::ArgCertifier;
use crate::refinement::binary::{BinaryChecker, FormulaTrace, TraceRefinement};
use crate::refinement::impact::ImpactRefiner;
use crate::refinement::predicate::{PredicatePrecisionRefiner, PredicateTraceChecker};
use crate::refinement::symbolic::SymbolicTraceChecker;
use crate::refinement::value::{ValuePrecisionRefiner, ValueTraceChecker};
use crate::refinement::value_predicate::{
    ValuePredicatePrecisionRefiner, ValuePredicateTraceChecker,
};
use crate::refinement::{
    CegarRefiner, PrecisionRefiner, RefinementStrategy, Refiner, TraceChecker,
};
use crate::session::config::{AlgorithmKind, Config, Domain, SignedOverflow};
use crate::session::portfolio::Portfolio;
use crate::smt::Smt;
use std::rc::Rc;

/// The algorithm of a (validated) configuration on `cfa`, solving with `smt`.
pub fn build(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Box<dyn Algorithm> {
    if UndefinedChecked::needed(&cfa) {
        let inner = build_checked(cfa.clone(), config, smt);
        return Box::new(UndefinedChecked::new(inner, cfa));
    }
    build_checked(cfa, config, smt)
}

/// [`build`] with the overflow checks `signed-overflow=check` asks for.
fn build_checked(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Box<dyn Algorithm> {
    let own_cfa = !matches!(
        config.algorithm,
        AlgorithmKind::Portfolio | AlgorithmKind::Execution
    );
    if config.signed_overflow == SignedOverflow::Check && own_cfa {
        let checked = Rc::new(crate::cfa::transform::overflow::checked(&cfa));
        let inner = build_on(checked.clone(), config, smt);
        return Box::new(OverflowChecked::new(inner, &cfa, checked));
    }
    build_on(cfa, config, smt)
}

fn build_on(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Box<dyn Algorithm> {
    match config.algorithm {
        AlgorithmKind::Cegar => match config.domain {
            Domain::Predicate => Box::new(predicate_cegar(cfa, config, smt)),
            Domain::Value => Box::new(value_cegar(cfa, config, smt)),
            Domain::Symbolic => Box::new(symbolic_cegar(cfa, config, smt)),
            Domain::ValuePredicate => Box::new(value_predicate_cegar(cfa, config, smt)),
        },
        AlgorithmKind::Bmc => Box::new(Bmc::new(
            unrolling(cfa, config, smt),
            config.max_depth,
            config.k_init,
            config.k_max,
        )),
        AlgorithmKind::KInduction => Box::new(KInduction::new(
            unrolling(cfa, config, smt),
            config.k_init,
            config.k_max,
            config.invariants,
        )),
        AlgorithmKind::Portfolio => Box::new(Portfolio::new(cfa, config, smt, build)),
        AlgorithmKind::Execution => Box::new(Execution::new(cfa)),
    }
}

fn predicate_cpa(cfa: &Rc<Cfa>, config: &Config) -> PredicateCpa {
    let encoding = config.encoding.resolve(cfa);
    PredicateCpa::new(cfa.clone(), config.predicate.clone(), encoding)
}

/// The unrolling core of BMC and k-induction.
fn unrolling(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Unrolling {
    let cpa = predicate_cpa(&cfa, config);
    Unrolling::new(
        cfa,
        cpa,
        smt,
        config.waitlist,
        config.max_depth,
        config.k_init,
    )
}

/// A trace checker, precision refiner and prune strategy composed; binary interpolation
/// wraps the domain's trace checker when the configuration asks for it.
fn cegar_refiner<C, T, P>(config: &Config, checker: T, precision: P) -> Box<dyn Refiner<C>>
where
    C: Cpa + Describe + 'static,
    T: TraceChecker<C> + FormulaTrace<C> + 'static,
    P: PrecisionRefiner<C> + 'static,
{
    let prune = config.prune;
    match config.trace_refinement.binary() {
        Some(mode) => Box::new(CegarRefiner {
            checker: BinaryChecker {
                inner: checker,
                mode,
            },
            precision,
            prune,
        }),
        None => Box::new(CegarRefiner {
            checker,
            precision,
            prune,
        }),
    }
}

/// Whether exploration collects every counterexample before refining (`multi-seq`).
fn multi_cex(config: &Config) -> bool {
    config.trace_refinement == TraceRefinement::MultiSeq
}

/// Predicate abstraction with CEGAR: lazy predicate refinement or IMPACT.
pub fn predicate_cegar(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Cegar<PredicateCpa> {
    let cpa = predicate_cpa(&cfa, config);
    let (name, refiner): (&str, Box<dyn Refiner<PredicateCpa>>) = match config.refinement {
        RefinementStrategy::Predicate => (
            "predicate abstraction (CEGAR)",
            cegar_refiner(
                config,
                PredicateTraceChecker,
                PredicatePrecisionRefiner {
                    split: config.predicate_split,
                },
            ),
        ),
        RefinementStrategy::Impact => (
            "IMPACT (CEGAR)",
            Box::new(ImpactRefiner {
                checker: PredicateTraceChecker,
                fcover: config.fcover,
            }),
        ),
    };
    let parts = Parts {
        name: name.to_string(),
        cpa,
        refiner,
        certifier: Box::new(ArgCertifier),
        keep_going: false,
        multi_cex: multi_cex(config),
    };
    let mut cegar = Cegar::new(cfa.clone(), parts, smt, config.waitlist, config.max_depth);
    if !config.predicates.is_empty() || config.affine_predicates || config.invariant_predicates {
        let cfa = cfa.clone();
        let config = config.clone();
        cegar = cegar.with_initial_precision(Box::new(move |cpa, smt| {
            if config.refinement == RefinementStrategy::Impact {
                // Named by the knobs set, so that the message points at what to unset.
                let knobs: Vec<&str> = [
                    (!config.predicates.is_empty(), "predicates"),
                    (config.affine_predicates, "affine-predicates"),
                    (config.invariant_predicates, "invariant-predicates"),
                ]
                .into_iter()
                .filter_map(|(set, k)| set.then_some(k))
                .collect();
                return Ok(Err(format!(
                    "{}: IMPACT does not abstract with predicates (it strengthens the states \
                     of spurious paths); predicate abstraction (predicate-lbe) does",
                    knobs.join(", ")
                )));
            }
            seeded_predicates(&cfa, &config, cpa, smt)
        }));
    }
    refining(cegar, config)
}

/// `max-refinements=0`: the analysis never refines (a path to an error ends the run).
fn refining<C: Describe>(cegar: Cegar<C>, config: &Config) -> Cegar<C> {
    if config.limits.max_refinements == 0 {
        cegar.without_refinement()
    } else {
        cegar
    }
}

/// The precision of the `predicates` knob (each C expression at every location of its line,
/// in its function's scope); with `affine-predicates`, Karr's equalities at every location of
/// a function with a loop (where the abstraction does not compute, they cost nothing); with
/// `invariant-predicates`, the invariants Houdini keeps at the loop heads (its queries are
/// the first step's). Split into predicates as refinement splits interpolants.
fn seeded_predicates(
    cfa: &Cfa,
    config: &Config,
    cpa: &mut PredicateCpa,
    smt: &mut dyn Smt,
) -> crate::smt::Result<
    crate::algorithm::cegar::Initial<crate::domains::predicate::PredicatePrecision>,
> {
    use crate::formula::encode::Builder;
    use crate::formula::{Encoder, Frames, SsaMap};
    let mut given: Vec<(crate::cfa::NodeId, crate::ir::Expr)> = Vec::new();
    for (line, text) in &config.predicates {
        let nodes: Vec<_> = cfa.nodes.iter().filter(|n| n.line == *line).collect();
        if nodes.is_empty() {
            return Ok(Err(format!(
                "predicates: no program location at line {line}"
            )));
        }
        for n in nodes {
            match crate::frontend::invariant::parse_invariant(cfa, n.function, text) {
                Ok(e) => given.push((n.id, e)),
                Err(e) => return Ok(Err(format!("predicates: line {line}: {e}"))),
            }
        }
    }
    if config.affine_predicates {
        for (l, es) in crate::invariants::affine::all_invariants(cfa) {
            given.extend(es.into_iter().map(|e| (l, e)));
        }
    }
    if config.invariant_predicates {
        let octagon = crate::invariants::octagon::loop_invariants(cfa);
        let candidates = crate::proof::houdini::candidates(cfa).all();
        // `None`: Houdini could not follow the program's blocks; the search starts without.
        if let Some(kept) = crate::proof::houdini::inductive(cfa, candidates, &octagon, smt)? {
            for (l, es) in kept {
                given.extend(es.into_iter().map(|(e, _)| (l, e)));
            }
        }
    }
    let enc = Encoder::new(cfa, cpa.encoding);
    let mut at = Vec::new();
    for (l, e) in &given {
        let ctl = crate::cpa::control::ControlState::at(*l);
        let mut b = Builder::without_read_ranges(SsaMap::default(), Frames::of(cfa, &ctl));
        at.push((*l, enc.cond(&mut b, e)));
    }
    Ok(crate::refinement::predicate::predicates_at(
        &mut cpa.table,
        config.predicate_split,
        at.iter().map(|(l, t)| (*l, t)),
    )
    .map(|inc| (inc.added, inc.shown))
    .map_err(|e| format!("predicates: {e}")))
}

/// Explicit-value analysis with CEGAR: value interpolation, lazy pruning from the pivot.
pub fn value_cegar(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Cegar<ValueCpa> {
    let encoding = config.encoding.resolve(&cfa);
    let cpa = ValueCpa::new(cfa.clone(), config.value.clone(), encoding);
    let parts = Parts {
        name: "explicit-value analysis (CEGAR)".to_string(),
        cpa,
        refiner: cegar_refiner(
            config,
            ValueTraceChecker::new(config.value_refinement),
            ValuePrecisionRefiner,
        ),
        certifier: Box::new(ArgCertifier),
        keep_going: true,
        multi_cex: multi_cex(config),
    };
    refining(
        Cegar::new(cfa, parts, smt, config.waitlist, config.max_depth),
        config,
    )
}

/// Symbolic execution with CEGAR: symbolic interpolation (or refinement delegated to
/// predicate interpolants), lazy pruning from the pivot.
pub fn symbolic_cegar(cfa: Rc<Cfa>, config: &Config, smt: Box<dyn Smt>) -> Cegar<SymbolicCpa> {
    let encoding = config.encoding.resolve(&cfa);
    let cpa = SymbolicCpa::new(
        cfa.clone(),
        config.symbolic.clone(),
        config.value.scope,
        encoding,
    );
    let parts = Parts {
        name: "symbolic execution (CEGAR)".to_string(),
        cpa,
        refiner: cegar_refiner(
            config,
            SymbolicTraceChecker::new(config.symbolic.refutation),
            ValuePrecisionRefiner,
        ),
        certifier: Box::new(ArgCertifier),
        keep_going: true,
        multi_cex: multi_cex(config),
    };
    refining(
        Cegar::new(cfa, parts, smt, config.waitlist, config.max_depth),
        config,
    )
}

/// Explicit values combined with predicate abstraction: value interpolation first, predicate
/// interpolants for the paths that explicit values cannot refute; lazy pruning from the pivot.
pub fn value_predicate_cegar(
    cfa: Rc<Cfa>,
    config: &Config,
    smt: Box<dyn Smt>,
) -> Cegar<ValuePredicateCpa> {
    let encoding = config.encoding.resolve(&cfa);
    let cpa = ValuePredicateCpa {
        value: ValueCpa::new(cfa.clone(), config.value.clone(), encoding),
        pred: PredicateCpa::new(cfa.clone(), config.predicate.clone(), encoding),
        refutation_failure: None,
    };
    let parts = Parts {
        name: "explicit-value analysis with predicate refinement (CEGAR)".to_string(),
        cpa,
        refiner: cegar_refiner(
            config,
            ValuePredicateTraceChecker::default(),
            ValuePredicatePrecisionRefiner {
                split: config.predicate_split,
            },
        ),
        certifier: Box::new(ArgCertifier),
        keep_going: true,
        multi_cex: multi_cex(config),
    };
    refining(
        Cegar::new(cfa, parts, smt, config.waitlist, config.max_depth),
        config,
    )
}
