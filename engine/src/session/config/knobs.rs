//! Every knob of a configuration in one table: its key, group, kind of value, the sentence
//! that describes it, which configurations have it, and how it is read and set. `cpa verify
//! --set`, [`Config::set`], [`Config::knobs`], `cpa knobs`, the page's knob panel and
//! docs/knobs.md all read this table; adding a knob is one entry here.

use super::*;

/// The configurations a knob belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every single analysis (not a portfolio, not concrete execution: it has no abstraction).
    Analysis,
    /// Every configuration: the run's limits.
    Run,
    /// Only a portfolio: its components.
    Portfolio,
}

/// Where the page's knob panel shows a knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Algorithm,
    PredicateAbstraction,
    ValueAnalysis,
    ValueAndSymbolic,
    SymbolicExecution,
    Bounds,
    Limits,
}

impl Group {
    pub const ALL: [Group; 7] = [
        Group::Algorithm,
        Group::PredicateAbstraction,
        Group::ValueAnalysis,
        Group::ValueAndSymbolic,
        Group::SymbolicExecution,
        Group::Bounds,
        Group::Limits,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Group::Algorithm => "Algorithm",
            Group::PredicateAbstraction => "Predicate abstraction",
            Group::ValueAnalysis => "Value analysis",
            Group::ValueAndSymbolic => "Value and symbolic",
            Group::SymbolicExecution => "Symbolic execution",
            Group::Bounds => "Bounds",
            Group::Limits => "Limits",
        }
    }
}

/// The kind of value a knob takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// One of these values (`max-enum`: these are suggestions, any number works).
    Choice(&'static [&'static str]),
    Bool,
    Number,
    Text,
}

/// One knob.
pub struct Knob {
    pub key: &'static str,
    pub group: Group,
    pub input: Input,
    /// What it does, in one or two sentences.
    pub help: &'static str,
    pub scope: Scope,
    get: fn(&Config) -> String,
    /// Sets the knob from its text (the value and the key, for the messages); values out of
    /// the knob's range are refused here, combinations by [`Config::validate`].
    set: fn(&mut Config, &str, &str) -> Result<(), String>,
}

impl Knob {
    /// Whether `config` has this knob (a portfolio has only its components and the run's
    /// limits, concrete execution only the run's limits).
    pub fn applies(&self, config: &Config) -> bool {
        match (self.scope, config.algorithm) {
            (Scope::Run, _) => true,
            (Scope::Portfolio, a) => a == AlgorithmKind::Portfolio,
            (Scope::Analysis, AlgorithmKind::Portfolio | AlgorithmKind::Execution) => false,
            (Scope::Analysis, _) => true,
        }
    }

    pub fn value(&self, config: &Config) -> String {
        (self.get)(config)
    }

    pub(super) fn set(&self, config: &mut Config, value: &str) -> Result<(), String> {
        (self.set)(config, value, self.key)
    }
}

/// The knob with this key.
pub fn knob(key: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

/// A configuration enum's value by its serde name.
fn parse<T: serde::de::DeserializeOwned>(value: &str, key: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(value.to_string()))
        .map_err(|_| format!("invalid value '{value}' for '{key}'"))
}

fn num<T: std::str::FromStr>(value: &str, key: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("invalid number '{value}' for '{key}'"))
}

fn at_least<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    value: &str,
    key: &str,
    min: T,
    why: &str,
) -> Result<T, String> {
    let v: T = num(value, key)?;
    if v < min {
        return Err(format!("'{key}' must be at least {min} ({why})"));
    }
    Ok(v)
}

fn boolean(value: &str, key: &str) -> Result<bool, String> {
    match value {
        "true" | "yes" | "1" | "on" => Ok(true),
        "false" | "no" | "0" | "off" => Ok(false),
        _ => Err(format!("invalid Boolean '{value}' for '{key}'")),
    }
}

/// The serde name of a configuration enum's value.
pub(super) fn text<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => String::new(),
    }
}

const STRATEGIES: &[&str] = &[
    "farkas",
    "farkas-cases",
    "forward-qe",
    "forward-qe-min",
    "backward-qe",
    "auto",
    "backward-auto",
    "backward-auto-prefix",
];

/// Every knob, in the order `Config::knobs` lists them.
pub static KNOBS: &[Knob] = &[
    Knob {
        key: "portfolio",
        group: Group::Algorithm,
        input: Input::Text,
        help: "The analyses of the portfolio, run one after another: PRESET(KEY=VALUE;...)@QUERIES, separated by commas; each ends at its budget of solver queries (or its own limits) and hands over to the next, the first TRUE or FALSE decides.",
        scope: Scope::Portfolio,
        get: |c| {
            let parts: Vec<String> = c.portfolio.iter().map(Component::text).collect();
            parts.join(",")
        },
        set: |c, v, _| {
            c.portfolio = parse_portfolio(v)?;
            Ok(())
        },
    },
    Knob {
        key: "algorithm",
        group: Group::Algorithm,
        input: Input::Choice(&["cegar", "bmc", "k-induction", "execution"]),
        help: "CEGAR around CPA++ (lazy abstraction or IMPACT), bounded model checking, k-induction, or concrete execution with loop acceleration and input splitting.",
        scope: Scope::Analysis,
        get: |c| text(&c.algorithm),
        set: |c, v, k| {
            c.algorithm = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "domain",
        group: Group::Algorithm,
        input: Input::Choice(Domain::NAMES),
        help: "The abstract domain of CEGAR: predicate abstraction, explicit values of tracked variables, symbolic values with path constraints, or explicit values combined with predicate abstraction (value interpolation first, predicate interpolants for the paths explicit values cannot refute).",
        scope: Scope::Analysis,
        get: |c| text(&c.domain),
        set: |c, v, k| {
            c.domain = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-enum",
        group: Group::ValueAnalysis,
        input: Input::Choice(&["1*", "1", "5", "50", "0"]),
        help: "When an operation over tracked variables cannot be evaluated: 1* keeps them unknown (no solver); k lets the solver enumerate up to k value assignments, one successor each (0: no bound).",
        scope: Scope::Analysis,
        get: |c| c.value.max_enum.to_string(),
        set: |c, v, _| {
            c.value.max_enum = MaxEnum::try_from(v.to_string())?;
            Ok(())
        },
    },
    Knob {
        key: "value-refinement",
        group: Group::ValueAnalysis,
        input: Input::Choice(&["interpolation", "itp-vars"]),
        help: "How a spurious path is refuted: value interpolation (the variables each location must track), or the variables of the solver's sequence interpolants.",
        scope: Scope::Analysis,
        get: |c| text(&c.value_refinement),
        set: |c, v, k| {
            c.value_refinement = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "trace-refinement",
        group: Group::Algorithm,
        input: Input::Choice(&["seq-itp", "fw-bin-itp", "bw-bin-itp", "multi-seq", "min-prune", "max-prune"]),
        help: "How a spurious counterexample is refuted (the efficient-CEGAR paper): one interpolant per state (seq-itp), one binary interpolant at the end of the longest feasible prefix (fw-bin-itp) or the start of the longest feasible suffix (bw-bin-itp), the binary one that prunes nearer the root or the error (min-prune, max-prune), or all counterexamples of a fully explored ARG at once (multi-seq).",
        scope: Scope::Analysis,
        get: |c| text(&c.trace_refinement),
        set: |c, v, k| {
            c.trace_refinement = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "precision-scope",
        group: Group::ValueAndSymbolic,
        input: Input::Choice(&["location", "function", "global"]),
        help: "Where a variable refinement finds needed becomes tracked: at the interpolant's location only (lazy), in its whole function, or everywhere.",
        scope: Scope::Analysis,
        get: |c| text(&c.value.scope),
        set: |c, v, k| {
            c.value.scope = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "symbolic-merge",
        group: Group::SymbolicExecution,
        input: Input::Choice(&["sep", "join"]),
        help: "Merge of the constraints: never (sep), or where the two branches of an assumption meet with equal values, drop the pair p / not p (join).",
        scope: Scope::Analysis,
        get: |c| text(&c.symbolic.merge),
        set: |c, v, k| {
            c.symbolic.merge = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "symbolic-stop",
        group: Group::SymbolicExecution,
        input: Input::Choice(&["subset", "aliased-subset", "implication"]),
        help: "When a new state is covered: same values and a superset of the constraints (subset), the same up to one renaming of symbolic identifiers (aliased-subset), or same values and constraints that imply the other's (implication, a solver query).",
        scope: Scope::Analysis,
        get: |c| text(&c.symbolic.stop),
        set: |c, v, k| {
            c.symbolic.stop = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "sat-check",
        group: Group::SymbolicExecution,
        input: Input::Choice(&["assume", "target"]),
        help: "When the path constraints are checked for satisfiability: after every assumption that adds one, or only on the edge into an error location.",
        scope: Scope::Analysis,
        get: |c| text(&c.symbolic.sat_check),
        set: |c, v, k| {
            c.symbolic.sat_check = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "symbolic-refinement",
        group: Group::SymbolicExecution,
        input: Input::Choice(&["interpolation", "predicate"]),
        help: "How a spurious path is refuted: interpolation of symbolic states (constraints, then variables), or the variables of predicate refinement's sequence interpolants.",
        scope: Scope::Analysis,
        get: |c| text(&c.symbolic.refutation),
        set: |c, v, k| {
            c.symbolic.refutation = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "block",
        group: Group::PredicateAbstraction,
        input: Input::Choice(&["sbe", "loop-heads", "loop-heads-and-functions", "never"]),
        help: "Where blocks end and abstractions are computed: after every edge (SBE), at loop heads, at loop heads and function boundaries (LBE), or never (BMC).",
        scope: Scope::Analysis,
        get: |c| text(&c.predicate.block),
        set: |c, v, k| {
            c.predicate.block = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "abstraction",
        group: Group::PredicateAbstraction,
        input: Input::Choice(&["boolean", "cartesian"]),
        help: "Boolean abstraction (all Boolean combinations of predicates, by AllSAT) or Cartesian (a conjunction of predicates).",
        scope: Scope::Analysis,
        get: |c| text(&c.predicate.abstraction),
        set: |c, v, k| {
            c.predicate.abstraction = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "representation",
        group: Group::PredicateAbstraction,
        input: Input::Choice(&["bdd", "smt"]),
        help: "Abstraction formulas as BDDs (cheap implication checks) or SMT formulas.",
        scope: Scope::Analysis,
        get: |c| text(&c.predicate.representation),
        set: |c, v, k| {
            c.predicate.representation = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "sat-check-empty",
        group: Group::PredicateAbstraction,
        input: Input::Bool,
        help: "Check a block's satisfiability even when the precision is empty there.",
        scope: Scope::Analysis,
        get: |c| c.predicate.sat_check_empty.to_string(),
        set: |c, v, k| {
            c.predicate.sat_check_empty = boolean(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "allsat-limit",
        group: Group::PredicateAbstraction,
        input: Input::Number,
        help: "Most cubes AllSAT may enumerate before falling back to Cartesian abstraction.",
        scope: Scope::Analysis,
        get: |c| c.predicate.allsat_limit.to_string(),
        set: |c, v, k| {
            c.predicate.allsat_limit = at_least(
                v,
                k,
                1,
                "beyond the limit the Cartesian abstraction is used",
            )?;
            Ok(())
        },
    },
    Knob {
        key: "predicate-split",
        group: Group::PredicateAbstraction,
        input: Input::Choice(&["atoms", "conjuncts", "whole"]),
        help: "How an interpolant becomes predicates: its atoms, its top-level conjuncts, or the whole formula (the efficient-CEGAR paper's predicate splitting).",
        scope: Scope::Analysis,
        get: |c| text(&c.predicate_split),
        set: |c, v, k| {
            c.predicate_split = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "refinement",
        group: Group::Algorithm,
        input: Input::Choice(&["predicate", "impact"]),
        help: "Lazy predicate refinement (predicates at the pivot) or IMPACT (strengthen the states with interpolants; needs representation=smt).",
        scope: Scope::Analysis,
        get: |c| text(&c.refinement),
        set: |c, v, k| {
            c.refinement = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "prune",
        group: Group::Algorithm,
        input: Input::Choice(&["lazy", "full"]),
        help: "What a refinement rebuilds: the ARG below the pivot (lazy abstraction), or everything from the initial state.",
        scope: Scope::Analysis,
        get: |c| text(&c.prune),
        set: |c, v, k| {
            c.prune = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "encoding",
        group: Group::PredicateAbstraction,
        input: Input::Choice(&["auto", "int", "bv"]),
        help: "Formulas over integers (exact wrap-around by case splits) or bit-vectors; auto picks bv only where int would over-approximate.",
        scope: Scope::Analysis,
        get: |c| text(&c.encoding),
        set: |c, v, k| {
            c.encoding = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "signed-overflow",
        group: Group::PredicateAbstraction,
        input: Input::Choice(&["wrap", "check"]),
        help: "wrap: signed arithmetic is encoded with its wrap-around. check: an overflow check before every signed operation that can overflow, the operations encoded as mathematical integers (simpler formulas and interpolants); a reachable overflow ends the run with UNKNOWN.",
        scope: Scope::Analysis,
        get: |c| text(&c.signed_overflow),
        set: |c, v, k| {
            c.signed_overflow = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "waitlist",
        group: Group::Algorithm,
        input: Input::Choice(&["bfs", "dfs", "rpo", "err", "err-dfs", "dfs-err"]),
        help: "Which reached state is expanded next: oldest, newest, reverse postorder of the CFA, nearest to an error location (the efficient-CEGAR paper's ERR search), or that distance weighted with the depth in the ARG (2·depth + distance: err-dfs; depth + 2·distance: dfs-err), which stops a loop from starving a branch farther from the error.",
        scope: Scope::Analysis,
        get: |c| text(&c.waitlist),
        set: |c, v, k| {
            c.waitlist = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-depth",
        group: Group::Bounds,
        input: Input::Number,
        help: "Calls nested deeper than this are cut (TRUE is then impossible).",
        scope: Scope::Analysis,
        get: |c| c.max_depth.to_string(),
        set: |c, v, k| {
            c.max_depth = at_least(v, k, 1, "main's own calls")?;
            Ok(())
        },
    },
    Knob {
        key: "k-init",
        group: Group::Bounds,
        input: Input::Number,
        help: "First loop bound of BMC and k-induction.",
        scope: Scope::Analysis,
        get: |c| c.k_init.to_string(),
        set: |c, v, k| {
            c.k_init = at_least(v, k, 1, "the first bound")?;
            Ok(())
        },
    },
    Knob {
        key: "k-max",
        group: Group::Bounds,
        input: Input::Number,
        help: "Last loop bound of BMC and k-induction.",
        scope: Scope::Analysis,
        get: |c| c.k_max.to_string(),
        set: |c, v, k| {
            c.k_max = num(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "invariants",
        group: Group::Algorithm,
        input: Input::Bool,
        help: "k-induction: strengthen the inductive step with interval invariants.",
        scope: Scope::Analysis,
        get: |c| c.invariants.to_string(),
        set: |c, v, k| {
            c.invariants = boolean(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "fcover",
        group: Group::Algorithm,
        input: Input::Bool,
        help: "IMPACT's forced covering before each expansion (refinement=impact; off in the impact preset).",
        scope: Scope::Analysis,
        get: |c| c.fcover.to_string(),
        set: |c, v, k| {
            c.fcover = boolean(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "interpolation",
        group: Group::Algorithm,
        input: Input::Choice(STRATEGIES),
        help: "How sequence interpolants are computed (Farkas certificates, quantifier elimination forward or backward, or a combination); backward-auto-prefix keeps of each backward interpolant only the disjuncts the path's start needs (stronger, as the papers' figures show them: x = y on the unifying view's Figure 2; weakest preconditions generalise loops better).",
        scope: Scope::Analysis,
        get: |c| c.interpolation.name().to_string(),
        set: |c, v, k| {
            c.interpolation = parse(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-steps",
        group: Group::Limits,
        input: Input::Number,
        help: "Algorithm steps (pops, refinements, checks) before UNKNOWN.",
        scope: Scope::Run,
        get: |c| c.limits.max_steps.to_string(),
        set: |c, v, k| {
            c.limits.max_steps = num(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-states",
        group: Group::Limits,
        input: Input::Number,
        help: "ARG states before UNKNOWN.",
        scope: Scope::Run,
        get: |c| c.limits.max_states.to_string(),
        set: |c, v, k| {
            c.limits.max_states = num(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "predicates",
        group: Group::PredicateAbstraction,
        input: Input::Text,
        help: "Predicates given by hand, `LINE: C expression` separated by `;` (e.g. `8: x == y`): the precision at the locations of those lines from the start. With max-refinements=0 the run uses exactly them (the predicate exercise): it proves the program or stops at a spurious path.",
        scope: Scope::Analysis,
        get: |c| {
            let parts: Vec<String> = c
                .predicates
                .iter()
                .map(|(l, e)| format!("{l}: {e}"))
                .collect();
            parts.join("; ")
        },
        set: |c, v, _| {
            c.predicates = parse_predicates(v)?;
            Ok(())
        },
    },
    Knob {
        key: "affine-predicates",
        group: Group::PredicateAbstraction,
        input: Input::Bool,
        help: "Start with the affine equalities between variables that Karr's analysis finds (such as `j == 2 * i` at a loop head) as predicates where they hold.",
        scope: Scope::Analysis,
        get: |c| c.affine_predicates.to_string(),
        set: |c, v, k| {
            c.affine_predicates = boolean(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "invariant-predicates",
        group: Group::PredicateAbstraction,
        input: Input::Bool,
        help: "Before the search, prove what invariants it can at the loop heads (intervals and octagons, Karr's equalities, the program's own relations and those concrete runs suggest, kept where they are inductive together: Houdini) and start with them as predicates there.",
        scope: Scope::Analysis,
        get: |c| c.invariant_predicates.to_string(),
        set: |c, v, k| {
            c.invariant_predicates = boolean(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-refinements",
        group: Group::Limits,
        input: Input::Number,
        help: "Refinements before UNKNOWN.",
        scope: Scope::Run,
        get: |c| c.limits.max_refinements.to_string(),
        set: |c, v, k| {
            c.limits.max_refinements = num(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-queries",
        group: Group::Limits,
        input: Input::Number,
        help: "Solver queries before UNKNOWN.",
        scope: Scope::Run,
        get: |c| c.limits.max_queries.to_string(),
        set: |c, v, k| {
            c.limits.max_queries = num(v, k)?;
            Ok(())
        },
    },
    Knob {
        key: "max-solver-work",
        group: Group::Limits,
        input: Input::Number,
        help: "The work in all before UNKNOWN: Z3's resource units plus the engine's own work (round trips, Farkas simplex) in the same units; a count, not time, about a million a second natively (at least 1).",
        scope: Scope::Run,
        get: |c| c.limits.max_solver_work.to_string(),
        set: |c, v, k| {
            c.limits.max_solver_work = at_least(v, k, 1, "a run without solver work cannot decide")?;
            Ok(())
        },
    },
    Knob {
        key: "solver-rlimit",
        group: Group::Limits,
        input: Input::Number,
        help: "Z3's deterministic resource limit per query (at least 1); a query over it answers unknown.",
        scope: Scope::Run,
        get: |c| c.limits.solver_rlimit.to_string(),
        set: |c, v, k| {
            c.limits.solver_rlimit = at_least(
                v,
                k,
                1,
                "a query without a resource limit might never end",
            )?;
            Ok(())
        },
    },
];

/// The table as Markdown (docs/knobs.md, `cpa knobs --markdown`): each knob with its values,
/// the presets' defaults where they differ, and what it does.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Knobs\n\nEvery knob of a configuration, as `cpa verify --set KEY=VALUE` and the \
         playground's knob panel take them (generated from the engine's knob table by \
         `cpa knobs --markdown`; a test keeps this file equal to it).\n",
    );
    for g in Group::ALL {
        let knobs: Vec<&Knob> = KNOBS.iter().filter(|k| k.group == g).collect();
        if knobs.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {}\n\n", g.title()));
        out.push_str("| knob | values | default | what it does |\n| --- | --- | --- | --- |\n");
        for k in knobs {
            let values = match k.input {
                Input::Choice(c) => c.join(", "),
                Input::Bool => "true, false".into(),
                Input::Number => "a number".into(),
                Input::Text => "text".into(),
            };
            out.push_str(&format!(
                "| `{}` | {values} | {} | {} |\n",
                k.key,
                defaults(k),
                k.help.replace('|', "\\|")
            ));
        }
    }
    out
}

/// The presets' values of a knob: `VALUE` where all that have it agree, else `VALUE (PRESET,
/// ...)` per value.
fn defaults(k: &Knob) -> String {
    let mut by_value: Vec<(String, Vec<&str>)> = Vec::new();
    for p in Preset::ALL {
        let c = p.config();
        if !k.applies(&c) {
            continue;
        }
        let v = k.value(&c);
        match by_value.iter_mut().find(|(x, _)| *x == v) {
            Some((_, ps)) => ps.push(p.name()),
            None => by_value.push((v, vec![p.name()])),
        }
    }
    let show = |v: &str| {
        if v.is_empty() {
            "(empty)".to_string()
        } else if v.len() > 40 {
            "see `cpa knobs portfolio`".to_string()
        } else {
            format!("`{v}`")
        }
    };
    match by_value.as_slice() {
        [(v, _)] => show(v),
        _ => by_value
            .iter()
            .map(|(v, ps)| format!("{} ({})", show(v), ps.join(", ")))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// The value of the `predicates` knob: `LINE: EXPR` items separated by `;` (at most 2,000
/// bytes; the expressions are read against the program when the analysis is built).
fn parse_predicates(v: &str) -> std::result::Result<Vec<(u32, String)>, String> {
    if v.len() > 2_000 {
        return Err("predicates: at most 2000 bytes".into());
    }
    let mut out = Vec::new();
    for item in v.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let (line, e) = item
            .split_once(':')
            .ok_or_else(|| format!("predicates: '{item}' is not 'LINE: expression'"))?;
        let line: u32 = line
            .trim()
            .parse()
            .map_err(|_| format!("predicates: '{}' is not a line number", line.trim()))?;
        if e.trim().is_empty() {
            return Err(format!("predicates: no expression for line {line}"));
        }
        out.push((line, e.trim().to_string()));
    }
    Ok(out)
}
