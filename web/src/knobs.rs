//! The knobs panel's model: every key of `Config::knobs`, grouped, with its choices and a
//! sentence on what it does. A knob the engine adds later and this table does not know is
//! still shown (as a text field in "Other").

use crate::protocol::RunConfig;
use cpa_engine::session::config::Config;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Choice(&'static [&'static str]),
    Bool,
    Number,
    Text,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knob {
    pub key: String,
    pub group: &'static str,
    pub input: Input,
    pub help: &'static str,
    /// The value in effect (the preset's unless overridden).
    pub value: String,
    /// The preset's value.
    pub default: String,
}

const STRATEGIES: &[&str] = &[
    "farkas",
    "farkas-cases",
    "forward-qe",
    "forward-qe-min",
    "backward-qe",
    "auto",
    "backward-auto",
];

pub const GROUPS: &[&str] = &[
    "Algorithm",
    "Predicate abstraction",
    "Value analysis",
    "Bounds",
    "Limits",
    "Other",
];

fn describe(key: &str) -> (&'static str, Input, &'static str) {
    use Input::*;
    match key {
        "algorithm" => ("Algorithm", Choice(&["cegar", "bmc", "k-induction", "execution"]), "CEGAR around CPA++ (lazy abstraction or IMPACT), bounded model checking, k-induction, or concrete execution with loop acceleration and input splitting."),
        "refinement" => ("Algorithm", Choice(&["predicate", "impact"]), "Lazy predicate refinement (predicates at the pivot) or IMPACT (strengthen the states with interpolants; needs representation=smt)."),
        "waitlist" => ("Algorithm", Choice(&["bfs", "dfs", "rpo", "err", "err-dfs", "dfs-err"]), "Which reached state is expanded next: oldest, newest, reverse postorder of the CFA, nearest to an error location (the efficient-CEGAR paper's ERR search), or that distance weighted with the depth in the ARG (2·depth + distance: err-dfs; depth + 2·distance: dfs-err), which stops a loop from starving a branch farther from the error."),
        "interpolation" => ("Algorithm", Choice(STRATEGIES), "How sequence interpolants are computed (Farkas certificates, quantifier elimination forward or backward, or a combination)."),
        "fcover" => ("Algorithm", Bool, "IMPACT's forced covering before each expansion (refinement=impact; off in the impact preset)."),
        "domain" => ("Algorithm", Choice(&["predicate", "value", "symbolic", "value-predicate"]), "The abstract domain of CEGAR: predicate abstraction, explicit values of tracked variables, symbolic values with path constraints, or explicit values combined with predicate abstraction (value interpolation first, predicate interpolants for the paths explicit values cannot refute)."),
        "max-enum" => ("Value analysis", Choice(&["1*", "1", "5", "50", "0"]), "When an operation over tracked variables cannot be evaluated: 1* keeps them unknown (no solver); k lets the solver enumerate up to k value assignments, one successor each (0: no bound)."),
        "precision-scope" => ("Value and symbolic", Choice(&["location", "function", "global"]), "Where a variable refinement finds needed becomes tracked: at the interpolant's location only (lazy), in its whole function, or everywhere."),
        "value-refinement" => ("Value analysis", Choice(&["interpolation", "itp-vars"]), "How a spurious path is refuted: value interpolation (the variables each location must track), or the variables of the solver's sequence interpolants."),
        "symbolic-merge" => ("Symbolic execution", Choice(&["sep", "join"]), "Merge of the constraints: never (sep), or where the two branches of an assumption meet with equal values, drop the pair p / not p (join)."),
        "symbolic-stop" => ("Symbolic execution", Choice(&["subset", "aliased-subset", "implication"]), "When a new state is covered: same values and a superset of the constraints (subset), the same up to one renaming of symbolic identifiers (aliased-subset), or same values and constraints that imply the other's (implication, a solver query)."),
        "sat-check" => ("Symbolic execution", Choice(&["assume", "target"]), "When the path constraints are checked for satisfiability: after every assumption that adds one, or only on the edge into an error location."),
        "symbolic-refinement" => ("Symbolic execution", Choice(&["interpolation", "predicate"]), "How a spurious path is refuted: interpolation of symbolic states (constraints, then variables), or the variables of predicate refinement's sequence interpolants."),
        "invariants" => ("Algorithm", Bool, "k-induction: strengthen the inductive step with interval invariants."),
        "block" => ("Predicate abstraction", Choice(&["sbe", "loop-heads", "loop-heads-and-functions", "never"]), "Where blocks end and abstractions are computed: after every edge (SBE), at loop heads, at loop heads and function boundaries (LBE), or never (BMC)."),
        "abstraction" => ("Predicate abstraction", Choice(&["boolean", "cartesian"]), "Boolean abstraction (all Boolean combinations of predicates, by AllSAT) or Cartesian (a conjunction of predicates)."),
        "representation" => ("Predicate abstraction", Choice(&["bdd", "smt"]), "Abstraction formulas as BDDs (cheap implication checks) or SMT formulas."),
        "sat-check-empty" => ("Predicate abstraction", Bool, "Check a block's satisfiability even when the precision is empty there."),
        "trace-refinement" => ("Algorithm", Choice(&["seq-itp", "fw-bin-itp", "bw-bin-itp", "multi-seq", "min-prune", "max-prune"]), "How a spurious counterexample is refuted (the efficient-CEGAR paper): one interpolant per state (seq-itp), one binary interpolant at the end of the longest feasible prefix (fw-bin-itp) or the start of the longest feasible suffix (bw-bin-itp), the binary one that prunes nearer the root or the error (min-prune, max-prune), or all counterexamples of a fully explored ARG at once (multi-seq)."),
        "prune" => ("Algorithm", Choice(&["lazy", "full"]), "What a refinement rebuilds: the ARG below the pivot (lazy abstraction), or everything from the initial state."),
        "predicate-split" => ("Predicate abstraction", Choice(&["atoms", "conjuncts", "whole"]), "How an interpolant becomes predicates: its atoms, its top-level conjuncts, or the whole formula (the efficient-CEGAR paper's predicate splitting)."),
        "allsat-limit" => ("Predicate abstraction", Number, "Most cubes AllSAT may enumerate before falling back to Cartesian abstraction."),
        "encoding" => ("Predicate abstraction", Choice(&["auto", "int", "bv"]), "Formulas over integers (exact wrap-around by case splits) or bit-vectors; auto picks bv only where int would over-approximate."),
        "signed-overflow" => ("Predicate abstraction", Choice(&["wrap", "check"]), "wrap: signed arithmetic is encoded with its wrap-around. check: an overflow check before every signed operation that can overflow, the operations encoded as mathematical integers (simpler formulas and interpolants); a reachable overflow ends the run with UNKNOWN."),
        "max-depth" => ("Bounds", Number, "Calls nested deeper than this are cut (TRUE is then impossible)."),
        "k-init" => ("Bounds", Number, "First loop bound of BMC and k-induction."),
        "k-max" => ("Bounds", Number, "Last loop bound of BMC and k-induction."),
        "max-steps" => ("Limits", Number, "Algorithm steps (pops, refinements, checks) before UNKNOWN."),
        "max-states" => ("Limits", Number, "ARG states before UNKNOWN."),
        "max-refinements" => ("Limits", Number, "Refinements before UNKNOWN."),
        "max-queries" => ("Limits", Number, "Solver queries before UNKNOWN."),
        "portfolio" => ("Algorithm", Text, "The analyses of the portfolio, run one after another: PRESET(KEY=VALUE;...)@QUERIES, separated by commas; each ends at its budget of solver queries (or its own limits) and hands over to the next, the first TRUE or FALSE decides."),
        "solver-rlimit" => ("Limits", Number, "Z3's deterministic resource limit per query (0: none); a query over it answers unknown."),
        _ => ("Other", Text, "A setting of the engine (see `cpa verify --set`)."),
    }
}

/// The knobs of `config` (its preset's values as defaults), or none for an unknown preset.
pub fn knobs(config: &RunConfig) -> Vec<Knob> {
    let Some(preset) = Config::preset(&config.preset) else {
        return Vec::new();
    };
    let defaults = preset.knobs();
    defaults
        .into_iter()
        .map(|(key, default)| {
            let (group, input, help) = describe(key);
            let value = config
                .set
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| default.clone());
            Knob {
                key: key.to_string(),
                group,
                input,
                help,
                value,
                default,
            }
        })
        .collect()
}

/// The line under the analysis: the C semantics every preset shares (the same in every
/// encoding; ARCHITECTURE.md, "Semantics decisions") and the formulas the preset's encoding
/// knob asks for.
pub fn semantics_line(config: &RunConfig) -> String {
    let encoding = knobs(config)
        .into_iter()
        .find(|k| k.key == "encoding")
        .map(|k| k.value);
    let formulas = match encoding.as_deref() {
        Some("int") => "formulas over integers, wrap-around encoded exactly",
        Some("bv") => "formulas over bit-vectors",
        Some(_) => "formulas over integers, or bit-vectors where the program needs them",
        None => "",
    };
    let checked = knobs(config)
        .into_iter()
        .any(|k| k.key == "signed-overflow" && k.value == "check");
    let formulas = if checked && !formulas.is_empty() {
        format!("{formulas}; signed operations checked for overflow (a reachable overflow ends UNKNOWN)")
    } else {
        formulas.to_string()
    };
    let mut line = String::from(
        "C semantics: ILP32, arithmetic wraps around (two's complement, like gcc -fwrapv) in \
         every analysis",
    );
    if !formulas.is_empty() {
        line.push_str("; ");
        line.push_str(&formulas);
    }
    line.push('.');
    line
}

/// `config` with `key` set to `value` (an override equal to the preset's value is dropped).
pub fn with_knob(config: &RunConfig, key: &str, value: &str) -> RunConfig {
    let mut c = config.clone();
    c.set.retain(|(k, _)| k != key);
    let default = Config::preset(&c.preset).and_then(|p| {
        p.knobs()
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    });
    if default.as_deref() != Some(value) {
        c.set.push((key.to_string(), value.to_string()));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use cpa_engine::session::config::PRESETS;

    #[test]
    fn the_semantics_line_names_wrap_around_and_the_encoding() {
        for p in PRESETS {
            let line = semantics_line(&RunConfig::preset(p));
            assert!(line.contains("wraps around"), "{p}: {line}");
        }
        let mut c = RunConfig::preset("predicate-lbe");
        c.set.push(("encoding".into(), "bv".into()));
        assert!(semantics_line(&c).contains("bit-vectors"));
        c.set.push(("encoding".into(), "int".into()));
        assert!(semantics_line(&c).contains("over integers, wrap-around encoded exactly"));
        c.set.push(("signed-overflow".into(), "check".into()));
        assert!(semantics_line(&c).contains("checked for overflow"));
    }

    #[test]
    fn every_knob_is_described_and_every_choice_is_accepted() {
        for p in PRESETS {
            let ks = knobs(&RunConfig::preset(p));
            assert!(!ks.is_empty());
            for k in &ks {
                assert_ne!(k.group, "Other", "{} is not described", k.key);
                assert_eq!(k.value, k.default);
                if let Input::Choice(options) = k.input {
                    assert!(options.contains(&k.default.as_str()), "{p} {}", k.key);
                    for o in options {
                        let mut c = Config::preset(p).unwrap();
                        // Either accepted, or rejected as a combination (never as unknown).
                        if let Err(e) = c.set(&k.key, o) {
                            assert!(!e.contains("invalid value"), "{p} {}={o}: {e}", k.key);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn overrides_equal_to_the_preset_are_dropped() {
        let c = RunConfig::preset("predicate-lbe");
        let c2 = with_knob(&c, "waitlist", "bfs");
        assert_eq!(c2.set, vec![("waitlist".to_string(), "bfs".to_string())]);
        assert_eq!(
            knobs(&c2)
                .iter()
                .find(|k| k.key == "waitlist")
                .unwrap()
                .value,
            "bfs"
        );
        assert_eq!(with_knob(&c2, "waitlist", "rpo"), c);
    }
}
