//! What every explanation is made of: the pieces of a sentence ([`Piece`], built with
//! [`Say`]), the run and configuration it is about ([`Context`]), the papers cited, and the
//! helpers that shorten formulas and source lines.

use crate::protocol::Graph;
use crate::state::{location_line, Run};
use cpa_engine::config::BlockOperator;
use cpa_engine::config::RefinementStrategy;
use cpa_engine::config::WaitlistOrder;
use cpa_engine::config::{AlgorithmKind, Config, Domain};
use cpa_engine::view::StateView;

/// A piece of an explanation: text, a formula or code (shown in monospace), or a reference
/// to an ARG state or a source line (shown as a link that selects it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    /// Program text (C).
    Code(String),
    /// A formula in SMT-LIB, shown in mathematical notation (`formula::pretty`).
    Formula(String),
    State(u32),
    Line(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub pieces: Vec<Piece>,
    /// Where the operator is defined (paper and section or algorithm).
    pub source: &'static str,
    /// The glossary entry that explains the concept.
    pub glossary: &'static str,
}

impl Explanation {
    /// The text without markup (tests, the page's `title`s).
    pub fn plain(&self) -> String {
        let mut s = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) | Piece::Code(t) => s.push_str(t),
                Piece::Formula(f) => s.push_str(&short(&crate::present::formula::pretty(f))),
                Piece::State(id) => s.push_str(&format!("state {id}")),
                Piece::Line(l) => s.push_str(&format!("line {l}")),
            }
        }
        s
    }
}

pub(super) const UV: &str = "A Unifying View on SMT-Based Software Verification";

/// Builds the pieces of a sentence.
pub(super) struct Say(pub(super) Vec<Piece>);

impl Say {
    pub(super) fn t(mut self, s: impl Into<String>) -> Say {
        self.0.push(Piece::Text(s.into()));
        self
    }
    pub(super) fn c(mut self, s: impl Into<String>) -> Say {
        self.0.push(Piece::Code(s.into()));
        self
    }
    pub(super) fn f(mut self, s: impl Into<String>) -> Say {
        self.0.push(Piece::Formula(s.into()));
        self
    }
    pub(super) fn s(mut self, id: u32) -> Say {
        self.0.push(Piece::State(id));
        self
    }
    pub(super) fn l(mut self, line: Option<u32>) -> Say {
        if let Some(l) = line {
            self.0.push(Piece::Line(l));
        }
        self
    }
    pub(super) fn states(mut self, ids: &[u32], max: usize) -> Say {
        for (i, id) in ids.iter().take(max).enumerate() {
            if i > 0 {
                self = self.t(", ");
            }
            self = self.s(*id);
        }
        if ids.len() > max {
            self = self.t(format!(" and {} more", ids.len() - max));
        }
        self
    }
    pub(super) fn done(self, source: &'static str, glossary: &'static str) -> Explanation {
        Explanation {
            pieces: self.0,
            source,
            glossary,
        }
    }
}

pub(super) fn say() -> Say {
    Say(Vec::new())
}

/// Shortens a formula for a sentence (the views show it whole).
pub(super) fn short(f: &str) -> String {
    const MAX: usize = 160;
    if f.chars().count() <= MAX {
        f.to_string()
    } else {
        f.chars().take(MAX - 1).collect::<String>() + "…"
    }
}

pub struct Context<'a> {
    pub run: &'a Run,
    pub config: Option<&'a Config>,
}

impl Context<'_> {
    pub(super) fn cfa(&self) -> &Graph {
        &self.run.cfa
    }

    pub(super) fn line(&self, location: u32) -> Option<u32> {
        location_line(self.cfa(), location)
    }

    /// State `id` of the current view, or one the current event removed.
    pub(super) fn state(&self, id: u32) -> Option<&StateView> {
        self.run
            .cursor
            .frame
            .view
            .states
            .get(&id)
            .or_else(|| self.run.cursor.removed_now.iter().find(|s| s.id == id))
    }

    pub(super) fn state_line(&self, id: u32) -> Option<u32> {
        self.state(id).and_then(|s| self.line(s.location))
    }

    /// Whether state `id` is at a location the CFA does not have: a failed overflow check's
    /// (`signed-overflow=check` appends them to a copy of the CFA, which the page does not
    /// draw), and the line of the operation checked there (its parent's).
    pub(super) fn overflow_check(&self, id: u32) -> Option<Option<u32>> {
        let s = self.state(id)?;
        if self.cfa().nodes.iter().any(|n| n.id == s.location) {
            return None;
        }
        Some(s.parents.first().and_then(|&(p, _)| self.state_line(p)))
    }

    pub(super) fn state_label(&self, id: u32) -> Option<String> {
        self.run
            .cursor
            .frame
            .view
            .states
            .get(&id)
            .map(|s| s.label.clone())
            .filter(|l| !l.is_empty())
    }

    pub(super) fn edge(&self, id: u32) -> Option<&crate::protocol::GraphEdge> {
        let edges = &self.cfa().edges;
        edges
            .get(id as usize)
            .filter(|e| e.id == id)
            .or_else(|| edges.iter().find(|e| e.id == id))
    }

    pub(super) fn order(&self) -> &'static str {
        match self.config.map(|c| c.waitlist) {
            Some(WaitlistOrder::Bfs) => "breadth-first: the oldest state first",
            Some(WaitlistOrder::Dfs) => "depth-first: the newest state first",
            Some(WaitlistOrder::Rpo) => {
                "reverse postorder: deepest call stack, then the earliest location in the CFA"
            }
            Some(WaitlistOrder::Err) => {
                "nearest to an error location first: the shortest CFA path to an error"
            }
            Some(WaitlistOrder::ErrDfs) => {
                "smallest 2 × depth in the ARG + distance to an error location first"
            }
            Some(WaitlistOrder::DfsErr) => {
                "smallest depth in the ARG + 2 × distance to an error location first"
            }
            None => "waitlist order",
        }
    }

    pub(super) fn algorithm(&self) -> Option<AlgorithmKind> {
        self.config.map(|c| c.algorithm)
    }

    /// An analysis whose precision is tracked variables (domains `value` and `symbolic`).
    pub(super) fn value(&self) -> bool {
        self.config
            .is_some_and(|c| matches!(c.domain, Domain::Value | Domain::Symbolic))
    }

    /// Explicit values combined with predicate abstraction (domain `value-predicate`): its
    /// refinements track variables or add predicates.
    pub(super) fn combined(&self) -> bool {
        self.config
            .is_some_and(|c| c.domain == Domain::ValuePredicate)
    }

    /// Symbolic execution (domain `symbolic`).
    pub(super) fn symbolic(&self) -> bool {
        self.config.is_some_and(|c| c.domain == Domain::Symbolic)
    }

    /// The paper the explanations of a variable-tracking analysis cite.
    pub(super) fn value_paper(&self) -> &'static str {
        if self.symbolic() {
            SYMBOLIC_PAPER
        } else {
            VALUE_PAPER
        }
    }

    /// Concrete execution with loop acceleration.
    pub(super) fn execution(&self) -> bool {
        self.algorithm() == Some(AlgorithmKind::Execution)
    }

    pub(super) fn impact(&self) -> bool {
        self.config
            .is_some_and(|c| c.refinement == RefinementStrategy::Impact)
    }

    /// Why a block ends at `location`, by the configured block operator.
    pub(super) fn block_end(&self, location: u32) -> String {
        let node = self.cfa().node(location).cloned();
        let Some(n) = node else {
            // Only overflow checks add locations the page's CFA does not have.
            return "a failed overflow check (a target, so the block ends)".into();
        };
        let what = if n.error {
            "the error location"
        } else if n.loop_head {
            "a loop head"
        } else if n.kind == "entry" {
            "a function entry"
        } else if n.kind == "exit" {
            "a function exit"
        } else {
            "a location"
        };
        let op = match self.config.map(|c| c.predicate.block) {
            Some(BlockOperator::Sbe) => "blk^SBE ends a block after every edge",
            Some(BlockOperator::LoopHeads) => "blk^l ends blocks at loop heads and errors",
            Some(BlockOperator::LoopHeadsAndFunctions) => {
                "blk^lf ends blocks at loop heads, function calls and returns, and errors"
            }
            Some(BlockOperator::Never) | None => "the block operator ends the block",
        };
        format!("{what} ({op})")
    }
}

/// The text of source line `line` (1-based), trimmed and shortened.
pub fn source_line(run: &Run, line: u32) -> Option<String> {
    let text = run
        .source
        .lines()
        .nth(line.checked_sub(1)? as usize)?
        .trim();
    (!text.is_empty()).then(|| short_code(text))
}

pub(super) fn short_code(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        s.chars().take(MAX - 1).collect::<String>() + "…"
    }
}

/// Whether the texts of a refutation are value interpolants (`x = 1, y = 2`, `true`, `false`)
/// rather than formulas (predicate interpolants are printed as S-expressions).
pub(super) fn value_interpolants(texts: &[String]) -> bool {
    texts.iter().all(|t| !t.starts_with('(')) && texts.iter().any(|t| t.contains(" = "))
}

/// Whether a precision entry names a variable (`main::x`) rather than a predicate.
pub fn is_variable(text: &str) -> bool {
    !text.is_empty()
        && text != "false"
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '.')
}

/// The value analysis' sources, as the explanations cite them.
pub(super) const EFFICIENT_PAPER: &str = "binary interpolation, Sect. 3.2.1 and 3.2.3 (Hajdu, Micskei: Efficient Strategies for CEGAR-Based Model Checking)";
pub(super) const SYMBOLIC_PAPER: &str = "symbolic execution with CEGAR (Lemberger: Effective Symbolic Execution in CPAchecker with compositional CEGAR)";
pub(super) const ACCEL: &str = "concrete execution with path acceleration (Kroening, Lewis, Weissenbacher: Under-approximating Loops in C Programs for Fast Counterexample Detection)";

pub(super) const VALUE_PAPER: &str = "explicit-value analysis with CEGAR and interpolation (Beyer, Löwe: Explicit-State Software Model Checking Based on CEGAR and Interpolation)";
