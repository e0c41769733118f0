//! Typed configurations: the presets ([`Preset`]), every knob in one table ([`knobs::KNOBS`])
//! and the portfolio's components. `--set KEY=VALUE` reaches every knob through
//! [`Config::set`]; unknown keys and bad values are errors, never ignored.

pub mod components;
pub mod knobs;
pub mod preset;

pub use components::{parse_portfolio, Component, DEFAULT_PORTFOLIO, MAX_COMPONENTS};
pub use knobs::{Group, Input, Knob, Scope, KNOBS};
pub use preset::Preset;

// Every typed setting of a configuration, so that a caller needs this module only.
pub use crate::cpa::waitlist::WaitlistOrder;
pub use crate::domains::predicate::{
    AbstractionKind, BlockOperator, PredicateConfig, Representation,
};
pub use crate::domains::symbolic::SymbolicConfig;
pub use crate::domains::value::{MaxEnum, ValueConfig};
pub use crate::formula::{Encoding, EncodingChoice};
pub use crate::refinement::binary::{BinaryMode, TraceRefinement};
pub use crate::refinement::predicate::PredicateSplit;
pub use crate::refinement::value::ValueRefutation;
pub use crate::refinement::{PruneStrategy, RefinementStrategy};
use crate::verdict::StopReason;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmKind {
    /// CEGAR around CPA++ with the Predicate CPA (lazy predicate abstraction or IMPACT).
    Cegar,
    Bmc,
    KInduction,
    /// A sequential composition of analyses, each with a budget in counts
    /// ([`Config::portfolio`]).
    Portfolio,
    /// Concrete execution with loop acceleration, for programs whose run does not depend on
    /// inputs ([`crate::concrete::execution`]).
    Execution,
}

/// How the formula encodings treat signed arithmetic (the semantics is always wrap-around,
/// ARCHITECTURE.md, "Semantics decisions").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignedOverflow {
    /// The Int encoding encodes the wrap-around exactly (case splits).
    #[default]
    Wrap,
    /// Overflow checks before every signed operation that can overflow
    /// ([`crate::cfa::transform::overflow`]); the operations are encoded without wrap-around, and a
    /// reachable overflow ends the run with UNKNOWN.
    Check,
}

/// The abstract domain of a CEGAR analysis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Domain {
    /// Predicate abstraction (the Predicate CPA with adjustable-block encoding).
    #[default]
    Predicate,
    /// Explicit values (the Value Analysis CPA).
    Value,
    /// Symbolic values and path constraints (the symbolic execution CPA).
    Symbolic,
    /// Explicit values combined with predicate abstraction: value interpolation first,
    /// predicate interpolation for the paths explicit values cannot refute (the explicit-value
    /// CEGAR paper's combination).
    ValuePredicate,
}

impl Domain {
    /// The names `--set domain=NAME` takes, in the order of the variants (the knob table's
    /// choices; a test checks that they parse to the variants).
    pub const NAMES: &'static [&'static str] =
        &["predicate", "value", "symbolic", "value-predicate"];
}

/// Resource limits, all counts (never wall-clock): reaching one ends the run with UNKNOWN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Algorithm steps (waitlist pops, refinements, checks).
    pub max_steps: u64,
    /// ARG states created.
    pub max_states: u64,
    pub max_refinements: u64,
    pub max_queries: u64,
    /// The solver's work in all, in resource units (Z3's `rlimit` count summed over the
    /// run's queries): the budget that bounds a run's solver time without a clock.
    #[serde(default = "default_max_solver_work")]
    pub max_solver_work: u64,
    /// Resource limit of one solver query (Z3 rlimit units; 0: none). Deterministic, unlike
    /// a timeout: a query over the limit answers unknown everywhere.
    pub solver_rlimit: u64,
}

impl Limits {
    /// The limit that the counts of a run have reached, the reason of its UNKNOWN.
    pub fn reached(
        &self,
        steps: u64,
        states: u64,
        refinements: u64,
        queries: u64,
        work: u64,
    ) -> Option<StopReason> {
        if steps >= self.max_steps {
            Some(StopReason::Steps(self.max_steps))
        } else if states >= self.max_states {
            Some(StopReason::States(self.max_states))
        } else if refinements >= self.max_refinements && self.max_refinements > 0 {
            // 0: no refinement at all, which the analysis enforces itself (a path that needs
            // one ends the run UNKNOWN).
            Some(StopReason::Refinements(self.max_refinements))
        } else if queries >= self.max_queries {
            Some(StopReason::Queries(self.max_queries))
        } else if work >= self.max_solver_work {
            Some(StopReason::SolverWork(self.max_solver_work))
        } else {
            None
        }
    }
}

/// The default of [`Limits::max_solver_work`]: about a minute of work natively. The units
/// are Z3's `rlimit` count plus the engine's own work charged in the same units (a round
/// trip's cost outside Z3, the Farkas simplex's cells: `solver_bridge`'s `ROUND_TRIP_UNITS`
/// and `CELLS_PER_UNIT`). Measured with Z3 5.1.0 on these machines (docs/benchmarks.md):
/// runs of many small queries go at about 1 million units per second all told
/// (predicate-lbe on const_1-2.c, phases_1-1.c, half.i), hard queries at 2.5-5 million
/// (ps2-ll.c, parity.i), so 60 million units end a run within about a minute. The
/// portfolio has more ([`PORTFOLIO_SOLVER_WORK`]).
fn default_max_solver_work() -> u64 {
    60_000_000
}

/// The portfolio's [`Limits::max_solver_work`]: its components share it (each what the
/// earlier ones left, divided equally among it and the later ones), and symbolic execution,
/// its fifth, needs 36 million units for its FALSE of the memory task
/// `reducercommutativity/rangesum05.i`, where the four before it use 19 million: with 120
/// million its share was 34 million, with 150 million it is 44 million. The portfolio's
/// runs end before their budget on every task measured (docs/benchmarks.md).
pub const PORTFOLIO_SOLVER_WORK: u64 = 150_000_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 200_000,
            max_states: 100_000,
            max_refinements: 200,
            // About half a minute of small queries natively (predicate-lbe on functions_1-2.c:
            // 200,000 queries in 116 s of solver time); no correct answer of the portfolio or
            // predicate-lbe on the 59 tasks asks more than 751, predicate-sbe proves
            // tests/verdicts/memory-struct-counters-safe.c with 39,411 (in 7.7 s:
            // docs/benchmarks.md).
            max_queries: 50_000,
            max_solver_work: default_max_solver_work(),
            solver_rlimit: 5_000_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub preset: Preset,
    pub algorithm: AlgorithmKind,
    /// The abstract domain of CEGAR (BMC and k-induction use path formulas).
    #[serde(default)]
    pub domain: Domain,
    pub predicate: PredicateConfig,
    /// The value analysis (domain `value`).
    #[serde(default)]
    pub value: ValueConfig,
    /// Symbolic execution (domain `symbolic`).
    #[serde(default)]
    pub symbolic: SymbolicConfig,
    /// How much of the ARG a refinement rebuilds.
    #[serde(default)]
    pub prune: PruneStrategy,
    /// How interpolants become predicates.
    #[serde(default)]
    pub predicate_split: PredicateSplit,
    /// How value analysis refutes an infeasible path.
    #[serde(default)]
    pub value_refinement: ValueRefutation,
    /// How counterexamples are refuted: sequence or binary interpolation, several
    /// counterexamples at once (the efficient-CEGAR paper's `Refinement`).
    #[serde(default)]
    pub trace_refinement: TraceRefinement,
    pub refinement: RefinementStrategy,
    pub encoding: EncodingChoice,
    #[serde(default)]
    pub signed_overflow: SignedOverflow,
    pub waitlist: WaitlistOrder,
    /// Calls nested deeper than this are cut (the verdict TRUE is then impossible).
    pub max_depth: usize,
    /// First and last bound of BMC and k-induction.
    pub k_init: u32,
    pub k_max: u32,
    /// k-induction: strengthen the step case with interval invariants.
    pub invariants: bool,
    /// IMPACT's forced covering before each expansion (fcover^IMPACT; refinement=impact).
    pub fcover: bool,
    /// How refinement computes sequence interpolants (the solver bridge's strategies).
    pub interpolation: solver_bridge::itp::Strategy,
    pub limits: Limits,
    /// The components of `algorithm=portfolio`, run one after another.
    #[serde(default)]
    pub portfolio: Vec<Component>,
    /// Predicates given by hand (the predicate exercise): (source line, C expression), the
    /// precision at the locations of those lines from the start.
    #[serde(default)]
    pub predicates: Vec<(u32, String)>,
    /// Seeds predicate abstraction's precision with the affine equalities Karr's analysis
    /// finds at the loop heads ([`crate::invariants::affine`]).
    #[serde(default)]
    pub affine_predicates: bool,
    /// Seeds predicate abstraction's precision with the invariants Houdini keeps at the loop
    /// heads before the search starts ([`crate::proof::houdini::inductive`]: the octagon's,
    /// Karr's, the program's own relations and those concrete runs suggest, as far as they
    /// are inductive together).
    #[serde(default)]
    pub invariant_predicates: bool,
}

impl Config {
    /// The configuration of the preset named `name`.
    pub fn preset(name: &str) -> Option<Config> {
        Preset::from_name(name).map(Preset::config)
    }

    /// The configuration at work while a portfolio runs `component` (the text of its latest
    /// [`crate::events::Event::Component`]): that component's; any other configuration is
    /// itself.
    pub fn running(&self, component: Option<&str>) -> Config {
        match component {
            Some(text) if self.algorithm == AlgorithmKind::Portfolio => Component::parse(text)
                .and_then(|c| c.config())
                .unwrap_or_else(|_| self.clone()),
            _ => self.clone(),
        }
    }

    /// The keys `set` understands, with their current values.
    pub fn knobs(&self) -> Vec<(&'static str, String)> {
        KNOBS
            .iter()
            .filter(|k| k.applies(self))
            .map(|k| (k.key, k.value(self)))
            .collect()
    }

    /// A preset with knobs overridden, validated once at the end (so the order of the
    /// settings does not matter). Every way a configuration is built from text (CLI `--set`,
    /// the playground's knobs, a share link) goes through here.
    pub fn build<'a>(
        preset: &str,
        settings: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Config, String> {
        Config::of(Preset::parse(preset)?, settings)
    }

    /// [`Config::build`] of a known preset.
    pub fn of<'a>(
        preset: Preset,
        settings: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Config, String> {
        let mut c = preset.config();
        for (k, v) in settings {
            c.set(k, v)?;
        }
        c.validate()?;
        Ok(c)
    }

    /// Sets one knob from its textual value. Values out of the knob's range are refused here;
    /// combinations of knobs are checked by [`Config::validate`].
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match knobs::knob(key) {
            Some(k) if k.applies(self) => k.set(self, value),
            _ if self.algorithm == AlgorithmKind::Portfolio => {
                let own: Vec<&str> = self.knobs().iter().map(|(k, _)| *k).collect();
                Err(format!(
                    "'{key}' is not a knob of a portfolio (set it on a component: portfolio=PRESET({key}=VALUE)@QUERIES,...; the portfolio's knobs: {})",
                    own.join(", ")
                ))
            }
            _ => {
                let keys: Vec<&str> = self.knobs().iter().map(|(k, _)| *k).collect();
                Err(format!(
                    "unknown setting '{key}' (known: {})",
                    keys.join(", ")
                ))
            }
        }
    }

    /// Rejects values and combinations that cannot work or could make a verdict wrong. A
    /// configuration that did not come through [`Config::build`] (deserialized JSON) is
    /// checked by the session before it runs.
    pub fn validate(&self) -> Result<(), String> {
        if self.algorithm == AlgorithmKind::Portfolio {
            if self.portfolio.is_empty() || self.portfolio.len() > MAX_COMPONENTS {
                return Err(format!(
                    "a portfolio has 1 to {MAX_COMPONENTS} components (the preset portfolio has its default ones)"
                ));
            }
            for c in &self.portfolio {
                c.config()?;
            }
        }
        if self.predicate.allsat_limit == 0 {
            return Err("allsat-limit must be at least 1".into());
        }
        if self.limits.solver_rlimit == 0 {
            return Err("solver-rlimit must be at least 1".into());
        }
        if self.k_init == 0 || self.k_max < self.k_init {
            return Err("k-init must be at least 1 and at most k-max".into());
        }
        if self.refinement == RefinementStrategy::Impact
            && self.predicate.representation != Representation::Smt
        {
            return Err("IMPACT refinement needs representation=smt".into());
        }
        if self.algorithm == AlgorithmKind::Cegar && self.predicate.block == BlockOperator::Never {
            return Err("CEGAR needs blocks that end at error locations (block=never is for bmc and k-induction)".into());
        }
        if self.fcover && self.refinement != RefinementStrategy::Impact {
            return Err("forced covering is part of IMPACT (refinement=impact)".into());
        }
        if self.domain != Domain::Predicate {
            if self.algorithm != AlgorithmKind::Cegar {
                return Err(format!(
                    "domain={} is a CEGAR analysis (bmc and k-induction use path formulas)",
                    knobs::text(&self.domain)
                ));
            }
            if self.refinement != RefinementStrategy::Predicate {
                return Err("IMPACT refinement and forced covering need domain=predicate".into());
            }
        }
        if self.domain == Domain::ValuePredicate
            && self.value_refinement != ValueRefutation::Interpolation
        {
            return Err("domain=value-predicate refines by value interpolation and then by predicate interpolants (value-refinement=itp-vars is for domain=value)".into());
        }
        if self.trace_refinement != TraceRefinement::SeqItp
            && (self.algorithm != AlgorithmKind::Cegar
                || self.refinement != RefinementStrategy::Predicate)
        {
            return Err(format!(
                "trace-refinement={} is for CEGAR with precision refinement (not bmc, k-induction or IMPACT)",
                knobs::text(&self.trace_refinement)
            ));
        }
        if self.signed_overflow == SignedOverflow::Check && self.domain != Domain::Predicate {
            return Err(format!(
                "signed-overflow=check is for the formula encodings (domain=predicate, bmc, k-induction); domain={} evaluates the wrap-around itself",
                knobs::text(&self.domain)
            ));
        }
        if self.max_depth == 0 {
            return Err("max-depth must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_every_knob_round_trips() {
        for p in Preset::ALL.map(Preset::name) {
            let mut c = Config::preset(p).unwrap();
            c.validate().unwrap();
            for (k, v) in c.clone().knobs() {
                c.set(k, &v).unwrap_or_else(|e| panic!("{p}: {k}={v}: {e}"));
            }
            assert_eq!(c, Config::preset(p).unwrap());
        }
        let mut c = Config::preset("predicate-lbe").unwrap();
        assert!(c.set("block", "sbe").is_ok());
        assert!(c.set("block", "bogus").is_err());
        assert!(c.set("no-such-knob", "1").is_err());
        let build = |sets: &[(&'static str, &'static str)]| {
            Config::build("predicate-lbe", sets.iter().copied())
        };
        assert!(
            build(&[("refinement", "impact")]).is_err(),
            "impact needs smt"
        );
        // The order of the settings does not matter.
        assert!(build(&[("refinement", "impact"), ("representation", "smt")]).is_ok());
        assert!(build(&[("representation", "smt"), ("refinement", "impact")]).is_ok());
        assert!(Config::build("no-such-preset", []).is_err());
    }

    #[test]
    fn a_portfolio_has_components_and_only_its_own_knobs() {
        let p = Config::preset("portfolio").unwrap();
        assert_eq!(p.algorithm, AlgorithmKind::Portfolio);
        assert_eq!(
            p.knobs().iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            [
                "portfolio",
                "max-steps",
                "max-states",
                "max-refinements",
                "max-queries",
                "max-solver-work",
                "solver-rlimit"
            ]
        );
        let text = p
            .knobs()
            .into_iter()
            .find(|(k, _)| *k == "portfolio")
            .unwrap()
            .1;
        assert_eq!(text, DEFAULT_PORTFOLIO);
        // A component's settings and budget are read and written back the same.
        let c = Config::build(
            "portfolio",
            [("portfolio", "bmc(k-max=3;encoding=int)@50, value@7")],
        )
        .unwrap();
        assert_eq!(c.portfolio.len(), 2);
        assert_eq!(c.portfolio[0].text(), "bmc(k-max=3;encoding=int)@50");
        let bmc = c.portfolio[0].config().unwrap();
        assert_eq!((bmc.k_max, bmc.limits.max_queries), (3, 50));
        assert_eq!(c.running(Some("value@7")).domain, Domain::ValuePredicate);
        for name in Domain::NAMES {
            let mut c = Config::preset("predicate-lbe").unwrap();
            c.set("domain", name).unwrap();
            assert_eq!(knobs::knob("domain").unwrap().value(&c), *name);
        }
        assert_eq!(c.running(None).algorithm, AlgorithmKind::Portfolio);
        // Knobs of single analyses belong on a component.
        let e = Config::build("portfolio", [("block", "sbe")]).unwrap_err();
        assert!(e.contains("not a knob of a portfolio"), "{e}");
        // Only the preset portfolio has the knob portfolio.
        assert!(Config::build("predicate-lbe", [("portfolio", "bmc@1")]).is_err());
        for bad in [
            "",
            "bmc",
            "bmc@0",
            "bmc@x",
            "portfolio@10",
            "no-such-preset@10",
            "predicate-lbe(allsat-limit=0)@10",
            "predicate-lbe(block=never)@10",
            "bmc(k-max@10",
            "bmc@1,bmc@1,bmc@1,bmc@1,bmc@1,bmc@1,bmc@1,bmc@1,bmc@1",
        ] {
            assert!(
                Config::build("portfolio", [("portfolio", bad)]).is_err(),
                "{bad:?} was accepted"
            );
        }
        // A deserialized portfolio is validated too.
        let mut c = Config::preset("portfolio").unwrap();
        c.portfolio[0].queries = 0;
        assert!(c.validate().is_err());
        c.portfolio.clear();
        assert!(c.validate().is_err());
    }

    /// Values that made a verdict wrong or a query endless are refused, by `set` and by
    /// `validate` (for configurations deserialized from JSON).
    #[test]
    fn unsound_or_endless_values_are_refused() {
        for (k, v) in [
            ("allsat-limit", "0"),
            ("solver-rlimit", "0"),
            ("max-depth", "0"),
            ("k-init", "0"),
        ] {
            let e = Config::build("predicate-lbe", [(k, v)]).unwrap_err();
            assert!(e.contains(k), "{k}={v}: {e}");
        }
        let mut c = Config::preset("predicate-lbe").unwrap();
        c.predicate.allsat_limit = 0;
        assert!(c.validate().is_err());
        let mut c = Config::preset("impact").unwrap();
        c.limits.solver_rlimit = 0;
        assert!(c.validate().is_err());
    }

    /// Forced covering is an IMPACT operator: accepted there, refused where no refiner would
    /// use it (a knob that changes nothing would mislead).
    #[test]
    fn forced_covering_belongs_to_impact() {
        assert!(
            Config::build("impact", [("fcover", "true")])
                .unwrap()
                .fcover
        );
        let e = Config::build(
            "predicate-lbe",
            [("representation", "smt"), ("fcover", "true")],
        )
        .unwrap_err();
        assert!(e.contains("refinement=impact"), "{e}");
    }

    /// Every choice a knob offers is a value it takes: accepted, or refused as a combination
    /// (never as an unknown value); every knob of a preset reads back what it was set to.
    #[test]
    fn every_choice_of_the_knob_table_is_a_value_of_its_knob() {
        for p in Preset::ALL {
            for k in KNOBS.iter().filter(|k| k.applies(&p.config())) {
                let Input::Choice(options) = k.input else {
                    continue;
                };
                assert!(
                    options.contains(&k.value(&p.config()).as_str()),
                    "{p} {}: the default is not a choice",
                    k.key
                );
                for o in options {
                    let mut c = p.config();
                    match c.set(k.key, o) {
                        Ok(()) => assert_eq!(k.value(&c), *o, "{p} {}", k.key),
                        Err(e) => panic!("{p} {}={o}: {e}", k.key),
                    }
                }
            }
        }
        // Keys are unique, and every knob belongs to some preset.
        let mut keys: Vec<&str> = KNOBS.iter().map(|k| k.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KNOBS.len());
        for k in KNOBS {
            assert!(
                Preset::ALL.iter().any(|p| k.applies(&p.config())),
                "{} belongs to no preset",
                k.key
            );
        }
    }

    /// docs/knobs.md is the table written out (`cpa knobs --markdown` writes it).
    #[test]
    fn the_knobs_document_is_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/knobs.md");
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            doc == knobs::markdown(),
            "docs/knobs.md is not the knob table: run `cargo run -p cpa-cli -- knobs --markdown > docs/knobs.md`"
        );
    }

    #[test]
    fn presets_are_named_as_their_serde_names() {
        for p in Preset::ALL {
            assert_eq!(knobs::text(&p), p.name());
            assert_eq!(Preset::from_name(p.name()), Some(p));
        }
        assert!(Preset::parse("no-such")
            .unwrap_err()
            .contains("known: predicate-lbe"));
    }
}
