//! Typed configurations and the stable presets (their names are an interface: README.md). `--set KEY=VALUE` reaches every
//! knob through [`Config::set`]; unknown keys and bad values are errors, never ignored.

use crate::cpa::waitlist::WaitlistOrder;
use crate::domains::predicate::{AbstractionKind, BlockOperator, PredicateConfig, Representation};
use crate::domains::symbolic::SymbolicConfig;
use crate::domains::value::{MaxEnum, ValueConfig};
use crate::formula::EncodingChoice;
use crate::refinement::binary::TraceRefinement;
use crate::refinement::predicate::PredicateSplit;
use crate::refinement::value::ValueRefutation;
use crate::refinement::{PruneStrategy, RefinementStrategy};
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

/// One analysis of a portfolio: a preset with knob settings and a budget of solver queries
/// (a count, never time, so that a portfolio run replays exactly). The component also keeps
/// its preset's own step, state and refinement limits; reaching any of them ends the
/// component without a verdict and the next one starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Component {
    pub preset: String,
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    pub queries: u64,
}

impl Component {
    /// The component's configuration (its preset with its settings, validated), with the
    /// query budget as its query limit.
    pub fn config(&self) -> Result<Config, String> {
        if self.preset == "portfolio" {
            return Err("a portfolio cannot contain a portfolio".into());
        }
        if self.queries == 0 {
            return Err(format!(
                "the component {} needs a query budget of at least 1",
                self.text()
            ));
        }
        let mut c = Config::build(
            &self.preset,
            self.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )?;
        c.limits.max_queries = self.queries;
        Ok(c)
    }

    /// `PRESET(KEY=VALUE;...)@QUERIES`, the form the `portfolio` knob reads.
    pub fn text(&self) -> String {
        let mut s = self.preset.clone();
        if !self.settings.is_empty() {
            let kv: Vec<String> = self
                .settings
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            s.push_str(&format!("({})", kv.join(";")));
        }
        format!("{s}@{}", self.queries)
    }

    fn parse(text: &str) -> Result<Component, String> {
        let bad = || {
            format!("invalid portfolio component '{text}' (form: PRESET(KEY=VALUE;...)@QUERIES)")
        };
        let (head, queries) = text.trim().rsplit_once('@').ok_or_else(bad)?;
        let queries: u64 = queries.trim().parse().map_err(|_| bad())?;
        let (preset, settings) = match head.split_once('(') {
            Some((p, rest)) => {
                let inner = rest.strip_suffix(')').ok_or_else(bad)?;
                let settings = inner
                    .split(';')
                    .filter(|kv| !kv.trim().is_empty())
                    .map(|kv| {
                        kv.split_once('=')
                            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                            .ok_or_else(bad)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (p.trim().to_string(), settings)
            }
            None => (head.trim().to_string(), Vec::new()),
        };
        let c = Component {
            preset,
            settings,
            queries,
        };
        c.config()?;
        Ok(c)
    }
}

/// The most components a portfolio may have.
pub const MAX_COMPONENTS: usize = 8;

/// Reads the `portfolio` knob: components separated by commas.
pub fn parse_portfolio(text: &str) -> Result<Vec<Component>, String> {
    let parts: Vec<&str> = text.split(',').filter(|p| !p.trim().is_empty()).collect();
    if parts.is_empty() || parts.len() > MAX_COMPONENTS {
        return Err(format!(
            "a portfolio has 1 to {MAX_COMPONENTS} components (got {})",
            parts.len()
        ));
    }
    parts.into_iter().map(Component::parse).collect()
}

/// The components of the preset `portfolio`.
pub const DEFAULT_PORTFOLIO: &str = "execution(max-steps=15000)@1,\
kinduction(k-max=6;solver-rlimit=1000000)@300,predicate-lbe@3000,\
predicate-lbe(signed-overflow=check)@3000,symbolic(max-steps=2000)@2500,predicate-lbe@150000,kinduction@2000";

/// The knobs a portfolio has: its components and the whole run's limits. Its components are
/// configured inside the `portfolio` knob.
const PORTFOLIO_KNOBS: [&str; 6] = [
    "portfolio",
    "max-steps",
    "max-states",
    "max-refinements",
    "max-queries",
    "solver-rlimit",
];

/// The knobs of concrete execution: the run's limits (it has no abstraction and asks no solver
/// query, so only the step and state limits can end it; the others are accepted as for every
/// run, so one set of limits serves all presets).
const EXECUTION_KNOBS: [&str; 5] = [
    "max-steps",
    "max-states",
    "max-refinements",
    "max-queries",
    "solver-rlimit",
];

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

/// Resource limits, all counts (never wall-clock): reaching one ends the run with UNKNOWN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Algorithm steps (waitlist pops, refinements, checks).
    pub max_steps: u64,
    /// ARG states created.
    pub max_states: u64,
    pub max_refinements: u64,
    pub max_queries: u64,
    /// Resource limit of one solver query (Z3 rlimit units; 0: none). Deterministic, unlike
    /// a timeout: a query over the limit answers unknown everywhere.
    pub solver_rlimit: u64,
}

impl Limits {
    /// The limit that the counts of a run have reached, as the reason of its UNKNOWN.
    pub fn reached(
        &self,
        steps: u64,
        states: u64,
        refinements: u64,
        queries: u64,
    ) -> Option<String> {
        if steps >= self.max_steps {
            Some(format!("step limit of {} reached", self.max_steps))
        } else if states >= self.max_states {
            Some(format!("state limit of {} reached", self.max_states))
        } else if refinements >= self.max_refinements {
            Some(format!(
                "refinement limit of {} reached",
                self.max_refinements
            ))
        } else if queries >= self.max_queries {
            Some(format!(
                "solver query limit of {} reached",
                self.max_queries
            ))
        } else {
            None
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 200_000,
            max_states: 100_000,
            max_refinements: 200,
            max_queries: 200_000,
            solver_rlimit: 5_000_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub preset: String,
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
}

pub const PRESETS: [&str; 12] = [
    "predicate-lbe",
    "predicate-sbe",
    "predicate-abel",
    "impact",
    "bmc",
    "kinduction",
    "value",
    "symbolic",
    "theta-pred-bw",
    "theta-expl-multiseq",
    "portfolio",
    "execution",
];

impl Config {
    pub fn preset(name: &str) -> Option<Config> {
        let pred = |block, abstraction, representation| PredicateConfig {
            block,
            abstraction,
            representation,
            sat_check_empty: true,
            allsat_limit: 256,
        };
        let base = Config {
            preset: name.to_string(),
            algorithm: AlgorithmKind::Cegar,
            domain: Domain::Predicate,
            value: ValueConfig::default(),
            symbolic: SymbolicConfig::default(),
            value_refinement: ValueRefutation::Interpolation,
            trace_refinement: TraceRefinement::SeqItp,
            predicate_split: PredicateSplit::Atoms,
            prune: PruneStrategy::Lazy,
            predicate: pred(
                BlockOperator::LoopHeadsAndFunctions,
                AbstractionKind::Boolean,
                Representation::Bdd,
            ),
            refinement: RefinementStrategy::Predicate,
            encoding: EncodingChoice::Auto,
            signed_overflow: SignedOverflow::Wrap,
            waitlist: WaitlistOrder::Rpo,
            max_depth: 32,
            k_init: 1,
            k_max: 40,
            invariants: true,
            fcover: false,
            interpolation: solver_bridge::itp::Strategy::BackwardAuto,
            limits: Limits::default(),
            portfolio: Vec::new(),
        };
        Some(match name {
            "predicate-lbe" => base,
            "predicate-sbe" => Config {
                predicate: pred(
                    BlockOperator::Sbe,
                    AbstractionKind::Cartesian,
                    Representation::Bdd,
                ),
                waitlist: WaitlistOrder::Dfs,
                // Backward interpolants on single edges made no progress on calls-unsafe.c
                // and stalled QE on bitmask-safe.c.
                interpolation: solver_bridge::itp::Strategy::Auto,
                ..base
            },
            "predicate-abel" => Config {
                predicate: pred(
                    BlockOperator::LoopHeads,
                    AbstractionKind::Boolean,
                    Representation::Bdd,
                ),
                ..base
            },
            "impact" => Config {
                predicate: PredicateConfig {
                    sat_check_empty: false,
                    ..pred(
                        BlockOperator::LoopHeads,
                        AbstractionKind::Boolean,
                        Representation::Smt,
                    )
                },
                refinement: RefinementStrategy::Impact,
                // Forced covering (`--set fcover=true`) is off by default: it tries every
                // earlier state at the location before each expansion (a query, then an
                // interpolation, per candidate), and on the verdict programs and examples it
                // decides nothing more while tests/verdicts/nested-safe.c goes from TRUE in
                // 113 s to no answer in 300 s.
                fcover: false,
                interpolation: solver_bridge::itp::Strategy::Auto,
                ..base
            },
            "bmc" => Config {
                algorithm: AlgorithmKind::Bmc,
                predicate: pred(
                    BlockOperator::Never,
                    AbstractionKind::Boolean,
                    Representation::Smt,
                ),
                encoding: EncodingChoice::Bv,
                waitlist: WaitlistOrder::Rpo,
                ..base
            },
            "kinduction" => Config {
                algorithm: AlgorithmKind::KInduction,
                predicate: pred(
                    BlockOperator::Never,
                    AbstractionKind::Boolean,
                    Representation::Smt,
                ),
                encoding: EncodingChoice::Bv,
                waitlist: WaitlistOrder::Rpo,
                ..base
            },
            // Explicit values with predicate refinement for the paths they cannot refute (the
            // explicit-value CEGAR paper's combination); `--set domain=value` is the explicit
            // analysis alone. On the 59 tasks at 60 s: 37 correct against 26 (docs/benchmarks.md).
            "value" => Config {
                domain: Domain::ValuePredicate,
                ..base
            },
            "symbolic" => Config {
                domain: Domain::Symbolic,
                ..base
            },
            // The efficient-CEGAR paper's Table 4 (Sect. 4.3): predicate abstraction with
            // backward binary interpolation, whole interpolants as predicates and the error
            // location-based search; and the solver-backed explicit analysis (MaxEnum = 1)
            // refined from multiple counterexamples by the variables of sequence interpolants,
            // the same search. The paper's text does not say which weights of the search
            // (Sect. 3.1.2) the two use: ERR_DFS (2 · depth + distance), because the distance
            // alone starves a branch that is farther from the error than a loop (the paper's
            // Fig. 5b; tests/strategies/loop-starves-branch.c) and because on the 59 tasks it
            // adds three proofs to theta-pred-bw and loses none (docs/benchmarks.md).
            // The paper leaves the other parameters open; these are Theta's defaults (lazy
            // pruning, local precision) on our large-block encoding.
            // Theta's interpolants come from the solver's proofs (forward, like `auto`'s
            // Farkas and forward projection), not from weakest preconditions: on
            // bit-loop-safe.c whole backward-QE interpolants enumerate the loop's values.
            "theta-pred-bw" => Config {
                trace_refinement: TraceRefinement::BwBinItp,
                predicate_split: PredicateSplit::Whole,
                waitlist: WaitlistOrder::ErrDfs,
                interpolation: solver_bridge::itp::Strategy::Auto,
                ..base
            },
            "theta-expl-multiseq" => Config {
                domain: Domain::Value,
                value: ValueConfig {
                    max_enum: MaxEnum::Bounded(1),
                    ..ValueConfig::default()
                },
                value_refinement: ValueRefutation::ItpVars,
                trace_refinement: TraceRefinement::MultiSeq,
                waitlist: WaitlistOrder::ErrDfs,
                interpolation: solver_bridge::itp::Strategy::Auto,
                ..base
            },
            // A sequential portfolio (DEFAULT_PORTFOLIO, chosen on the 59 tasks: docs/benchmarks.md):
            // a short k-induction (its base case is BMC: shallow bugs, bounded programs,
            // k-inductive properties), symbolic execution (recursion, relations between
            // inputs), predicate abstraction with LBE, and k-induction to the full bound.
            "portfolio" => Config {
                algorithm: AlgorithmKind::Portfolio,
                portfolio: parse_portfolio(DEFAULT_PORTFOLIO).expect("the default portfolio"),
                limits: Limits {
                    max_steps: 1_000_000,
                    max_states: 500_000,
                    max_refinements: 1_000,
                    ..Limits::default()
                },
                ..base
            },
            // The run itself, with loops skipped by their closed form and inputs split into
            // classes of values whose runs take one path (docs/benchmarks.md).
            "execution" => Config {
                algorithm: AlgorithmKind::Execution,
                ..base
            },
            _ => return None,
        })
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

    /// Whether `key` is a knob of this configuration (a portfolio has only its components
    /// and the run's limits; only a portfolio has components).
    fn has_knob(&self, key: &str) -> bool {
        match self.algorithm {
            AlgorithmKind::Portfolio => PORTFOLIO_KNOBS.contains(&key),
            AlgorithmKind::Execution => EXECUTION_KNOBS.contains(&key),
            _ => key != "portfolio",
        }
    }

    /// The keys `set` understands, with their current values.
    pub fn knobs(&self) -> Vec<(&'static str, String)> {
        let v = |x: &dyn erased| x.text();
        let portfolio: Vec<String> = self.portfolio.iter().map(Component::text).collect();
        let all = vec![
            ("portfolio", portfolio.join(",")),
            ("algorithm", v(&self.algorithm)),
            ("domain", v(&self.domain)),
            ("max-enum", self.value.max_enum.to_string()),
            ("value-refinement", v(&self.value_refinement)),
            ("trace-refinement", v(&self.trace_refinement)),
            ("precision-scope", v(&self.value.scope)),
            ("symbolic-merge", v(&self.symbolic.merge)),
            ("symbolic-stop", v(&self.symbolic.stop)),
            ("sat-check", v(&self.symbolic.sat_check)),
            ("symbolic-refinement", v(&self.symbolic.refutation)),
            ("block", v(&self.predicate.block)),
            ("abstraction", v(&self.predicate.abstraction)),
            ("representation", v(&self.predicate.representation)),
            (
                "sat-check-empty",
                self.predicate.sat_check_empty.to_string(),
            ),
            ("allsat-limit", self.predicate.allsat_limit.to_string()),
            ("predicate-split", v(&self.predicate_split)),
            ("refinement", v(&self.refinement)),
            ("prune", v(&self.prune)),
            ("encoding", v(&self.encoding)),
            ("signed-overflow", v(&self.signed_overflow)),
            ("waitlist", v(&self.waitlist)),
            ("max-depth", self.max_depth.to_string()),
            ("k-init", self.k_init.to_string()),
            ("k-max", self.k_max.to_string()),
            ("invariants", self.invariants.to_string()),
            ("fcover", self.fcover.to_string()),
            ("interpolation", self.interpolation.name().to_string()),
            ("max-steps", self.limits.max_steps.to_string()),
            ("max-states", self.limits.max_states.to_string()),
            ("max-refinements", self.limits.max_refinements.to_string()),
            ("max-queries", self.limits.max_queries.to_string()),
            ("solver-rlimit", self.limits.solver_rlimit.to_string()),
        ];
        all.into_iter().filter(|(k, _)| self.has_knob(k)).collect()
    }

    /// A preset with knobs overridden, validated once at the end (so the order of the
    /// settings does not matter). Every way a configuration is built from text (CLI `--set`,
    /// the playground's knobs, a share link) goes through here.
    pub fn build<'a>(
        preset: &str,
        settings: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Config, String> {
        let mut c = Config::preset(preset)
            .ok_or_else(|| format!("unknown preset '{preset}' (known: {})", PRESETS.join(", ")))?;
        for (k, v) in settings {
            c.set(k, v)?;
        }
        c.validate()?;
        Ok(c)
    }

    /// Sets one knob from its textual value. Values out of the knob's range are refused here;
    /// combinations of knobs are checked by [`Config::validate`].
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        fn parse<T: serde::de::DeserializeOwned>(key: &str, value: &str) -> Result<T, String> {
            serde_json::from_value(serde_json::Value::String(value.to_string()))
                .map_err(|_| format!("invalid value '{value}' for '{key}'"))
        }
        fn num<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
            value
                .parse()
                .map_err(|_| format!("invalid number '{value}' for '{key}'"))
        }
        fn at_least<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
            key: &str,
            value: &str,
            min: T,
            why: &str,
        ) -> Result<T, String> {
            let v: T = num(key, value)?;
            if v < min {
                return Err(format!("'{key}' must be at least {min} ({why})"));
            }
            Ok(v)
        }
        fn boolean(key: &str, value: &str) -> Result<bool, String> {
            match value {
                "true" | "yes" | "1" | "on" => Ok(true),
                "false" | "no" | "0" | "off" => Ok(false),
                _ => Err(format!("invalid Boolean '{value}' for '{key}'")),
            }
        }
        let unknown = |c: &Config| {
            let keys: Vec<&str> = c.knobs().iter().map(|(k, _)| *k).collect();
            format!("unknown setting '{key}' (known: {})", keys.join(", "))
        };
        if !self.has_knob(key) {
            return Err(match self.algorithm {
                AlgorithmKind::Portfolio => format!(
                    "'{key}' is not a knob of a portfolio (set it on a component: portfolio=PRESET({key}=VALUE)@QUERIES,...; the portfolio's knobs: {})",
                    PORTFOLIO_KNOBS.join(", ")
                ),
                _ => unknown(self),
            });
        }
        match key {
            "portfolio" => self.portfolio = parse_portfolio(value)?,
            "algorithm" => self.algorithm = parse(key, value)?,
            "domain" => self.domain = parse(key, value)?,
            "max-enum" => self.value.max_enum = MaxEnum::try_from(value.to_string())?,
            "value-refinement" => self.value_refinement = parse(key, value)?,
            "trace-refinement" => self.trace_refinement = parse(key, value)?,
            "precision-scope" => self.value.scope = parse(key, value)?,
            "symbolic-merge" => self.symbolic.merge = parse(key, value)?,
            "symbolic-stop" => self.symbolic.stop = parse(key, value)?,
            "sat-check" => self.symbolic.sat_check = parse(key, value)?,
            "symbolic-refinement" => self.symbolic.refutation = parse(key, value)?,
            "block" => self.predicate.block = parse(key, value)?,
            "abstraction" => self.predicate.abstraction = parse(key, value)?,
            "representation" => self.predicate.representation = parse(key, value)?,
            "sat-check-empty" => self.predicate.sat_check_empty = boolean(key, value)?,
            "allsat-limit" => {
                self.predicate.allsat_limit = at_least(
                    key,
                    value,
                    1,
                    "beyond the limit the Cartesian abstraction is used",
                )?
            }
            "refinement" => self.refinement = parse(key, value)?,
            "predicate-split" => self.predicate_split = parse(key, value)?,
            "prune" => self.prune = parse(key, value)?,
            "encoding" => self.encoding = parse(key, value)?,
            "signed-overflow" => self.signed_overflow = parse(key, value)?,
            "waitlist" => self.waitlist = parse(key, value)?,
            "max-depth" => self.max_depth = at_least(key, value, 1, "main's own calls")?,
            "k-init" => self.k_init = at_least(key, value, 1, "the first bound")?,
            "k-max" => self.k_max = num(key, value)?,
            "invariants" => self.invariants = boolean(key, value)?,
            "fcover" => self.fcover = boolean(key, value)?,
            "interpolation" => self.interpolation = parse(key, value)?,
            "max-steps" => self.limits.max_steps = num(key, value)?,
            "max-states" => self.limits.max_states = num(key, value)?,
            "max-refinements" => self.limits.max_refinements = num(key, value)?,
            "max-queries" => self.limits.max_queries = num(key, value)?,
            "solver-rlimit" => {
                self.limits.solver_rlimit = at_least(
                    key,
                    value,
                    1,
                    "a query without a resource limit might never end",
                )?
            }
            _ => return Err(unknown(self)),
        }
        Ok(())
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
                    self.domain.text()
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
                self.trace_refinement.text()
            ));
        }
        if self.signed_overflow == SignedOverflow::Check && self.domain != Domain::Predicate {
            return Err(format!(
                "signed-overflow=check is for the formula encodings (domain=predicate, bmc, k-induction); domain={} evaluates the wrap-around itself",
                self.domain.text()
            ));
        }
        if self.max_depth == 0 {
            return Err("max-depth must be at least 1".into());
        }
        Ok(())
    }
}

/// Textual names of the configuration enums (their serde names).
trait Erased {
    fn text(&self) -> String;
}

use Erased as erased;

impl<T: Serialize> Erased for T {
    fn text(&self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(v) => v.to_string(),
            Err(_) => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_every_knob_round_trips() {
        for p in PRESETS {
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
            PORTFOLIO_KNOBS
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
}
