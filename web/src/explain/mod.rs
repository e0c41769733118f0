//! Each event of a run in one or two plain sentences, in the vocabulary of the papers, naming
//! the operator at work and where it is defined. This is what a student reads while stepping.
//!
//! References (shown with every sentence):
//! - "A Unifying View on SMT-Based Software Verification" (Beyer, Dangl, Wendler): the CPA
//!   operators (Sect. 2.2), the Predicate CPA's transfer, merge_P, stop_P and prec_P with the
//!   block operator blk (Sect. 3.1), refine_P (Sect. 3.2), forced covering (Sect. 3.3), CPA++
//!   (Algorithm 2), BMC (Sect. 4.1), k-induction (Algorithm 3), CEGAR (Algorithm 4), lazy
//!   predicate abstraction (Sect. 4.3);
//! - "Software Model Checking via Large-Block Encoding" (Beyer, Cimatti, Griggio, Keremoglu,
//!   Sebastiani): blocks ending at loop heads and function boundaries.
//!
//! A new event variant needs one arm here (the match is exhaustive, so the compiler asks).

use crate::protocol::Graph;
use crate::state::{location_line, Run};
use cpa_engine::config::BinaryMode;
use cpa_engine::config::RefinementStrategy;
use cpa_engine::config::WaitlistOrder;
use cpa_engine::config::{AbstractionKind, BlockOperator};
use cpa_engine::config::{AlgorithmKind, Config, Domain};
use cpa_engine::events::{CheckKind, CutReason, Event, StateKind, VerdictKind};
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

const UV: &str = "A Unifying View on SMT-Based Software Verification";

/// Builds the pieces of a sentence.
struct Say(Vec<Piece>);

impl Say {
    fn t(mut self, s: impl Into<String>) -> Say {
        self.0.push(Piece::Text(s.into()));
        self
    }
    fn c(mut self, s: impl Into<String>) -> Say {
        self.0.push(Piece::Code(s.into()));
        self
    }
    fn f(mut self, s: impl Into<String>) -> Say {
        self.0.push(Piece::Formula(s.into()));
        self
    }
    fn s(mut self, id: u32) -> Say {
        self.0.push(Piece::State(id));
        self
    }
    fn l(mut self, line: Option<u32>) -> Say {
        if let Some(l) = line {
            self.0.push(Piece::Line(l));
        }
        self
    }
    fn states(mut self, ids: &[u32], max: usize) -> Say {
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
    fn done(self, source: &'static str, glossary: &'static str) -> Explanation {
        Explanation {
            pieces: self.0,
            source,
            glossary,
        }
    }
}

fn say() -> Say {
    Say(Vec::new())
}

/// Shortens a formula for a sentence (the views show it whole).
fn short(f: &str) -> String {
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
    fn cfa(&self) -> &Graph {
        &self.run.cfa
    }

    fn line(&self, location: u32) -> Option<u32> {
        location_line(self.cfa(), location)
    }

    /// State `id` of the current view, or one the current event removed.
    fn state(&self, id: u32) -> Option<&StateView> {
        self.run
            .cursor
            .frame
            .view
            .states
            .get(&id)
            .or_else(|| self.run.cursor.removed_now.iter().find(|s| s.id == id))
    }

    fn state_line(&self, id: u32) -> Option<u32> {
        self.state(id).and_then(|s| self.line(s.location))
    }

    /// Whether state `id` is at a location the CFA does not have: a failed overflow check's
    /// (`signed-overflow=check` appends them to a copy of the CFA, which the page does not
    /// draw), and the line of the operation checked there (its parent's).
    fn overflow_check(&self, id: u32) -> Option<Option<u32>> {
        let s = self.state(id)?;
        if self.cfa().nodes.iter().any(|n| n.id == s.location) {
            return None;
        }
        Some(s.parents.first().and_then(|&(p, _)| self.state_line(p)))
    }

    fn state_label(&self, id: u32) -> Option<String> {
        self.run
            .cursor
            .frame
            .view
            .states
            .get(&id)
            .map(|s| s.label.clone())
            .filter(|l| !l.is_empty())
    }

    fn edge(&self, id: u32) -> Option<&crate::protocol::GraphEdge> {
        let edges = &self.cfa().edges;
        edges
            .get(id as usize)
            .filter(|e| e.id == id)
            .or_else(|| edges.iter().find(|e| e.id == id))
    }

    fn order(&self) -> &'static str {
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

    fn algorithm(&self) -> Option<AlgorithmKind> {
        self.config.map(|c| c.algorithm)
    }

    /// An analysis whose precision is tracked variables (domains `value` and `symbolic`).
    fn value(&self) -> bool {
        self.config
            .is_some_and(|c| matches!(c.domain, Domain::Value | Domain::Symbolic))
    }

    /// Explicit values combined with predicate abstraction (domain `value-predicate`): its
    /// refinements track variables or add predicates.
    fn combined(&self) -> bool {
        self.config
            .is_some_and(|c| c.domain == Domain::ValuePredicate)
    }

    /// Symbolic execution (domain `symbolic`).
    fn symbolic(&self) -> bool {
        self.config.is_some_and(|c| c.domain == Domain::Symbolic)
    }

    /// The paper the explanations of a variable-tracking analysis cite.
    fn value_paper(&self) -> &'static str {
        if self.symbolic() {
            SYMBOLIC_PAPER
        } else {
            VALUE_PAPER
        }
    }

    /// Concrete execution with loop acceleration.
    fn execution(&self) -> bool {
        self.algorithm() == Some(AlgorithmKind::Execution)
    }

    fn impact(&self) -> bool {
        self.config
            .is_some_and(|c| c.refinement == RefinementStrategy::Impact)
    }

    /// Why a block ends at `location`, by the configured block operator.
    fn block_end(&self, location: u32) -> String {
        let node = self.cfa().nodes.iter().find(|n| n.id == location).cloned();
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

/// The explanation of the event the position shows last.
pub fn explain(cx: &Context, index: usize, e: &Event) -> Explanation {
    let run = cx.run;
    match e {
        Event::Started { algorithm, bound } => match bound {
            None if cx.execution() => say()
                .t(format!("The analysis starts: {algorithm}. The program is run from the entry of "))
                .c("main")
                .t(" with the exact C semantics; without inputs this run is the program's only execution, so reaching the error is a bug and ending without it a proof. Where the run reads an input, it goes on for all of the input's values t at once (a class, every value affine in t) and is split exactly where the runs of the class would differ; a class of one value is a concrete run again. A loop whose iterations repeat one path with every variable changed by the same amount is skipped by its closed form.")
                .done(ACCEL, "acceleration"),
            None if algorithm.contains("recursion depth") => say()
                .t("The ARG was complete except for calls cut at the recursion depth bound, so the analysis starts over (")
                .c(algorithm.as_str())
                .t("), keeping the predicates learned so far.")
                .done("CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar"),
            None if cx.symbolic() => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial state, at the entry of "))
                .c("main")
                .t(": no value and no path constraint (⊤). A value read before it is known becomes a fresh symbolic identifier ($s0, $s1, …). The precision tracks no variable yet.")
                .done(SYMBOLIC_PAPER, "symbolic"),
            None if cx.value() => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial abstract state, at the entry of "))
                .c("main")
                .t(": an abstract variable assignment that knows no value (⊤). The precision tracks no variable yet.")
                .done(VALUE_PAPER, "value"),
            None if cx.combined() => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial abstract state, at the entry of "))
                .c("main")
                .t(": it knows no value (⊤) and its abstraction formula is ")
                .f("true")
                .t(". The precision tracks no variable and no predicate yet; a refinement tracks variables where explicit values refute the spurious path, and adds predicates where they cannot.")
                .done(VALUE_PAPER, "value"),
            None => say()
                .t(format!("The analysis starts: {algorithm}. The ARG holds the initial abstract state, at the entry of "))
                .c("main")
                .t(", with the abstraction formula ")
                .f("true")
                .t("; it is the only state in the waitlist.")
                .done("CEGAR, Algorithm 4; CPA++, Algorithm 2 (A Unifying View on SMT-Based Software Verification)", "cegar"),
            Some(k) if algorithm.contains("inductive step") => say()
                .t(format!("k-induction, inductive step for k = {k}: the ARG is unrolled from the loop head, from any state (not only the initial one), for {k} iterations; the auxiliary invariants constrain that arbitrary state."))
                .done("k-induction, Algorithm 3 (A Unifying View on SMT-Based Software Verification)", "kinduction"),
            Some(k) if algorithm.contains("k-induction") => say()
                .t(format!("k-induction, base case for k = {k}: the program is unrolled from its entry with the loop bound {k} (the Loop-Bound CPA stops every path after {k} iterations of a loop)."))
                .done("k-induction, Algorithm 3 (A Unifying View on SMT-Based Software Verification)", "kinduction"),
            Some(k) => say()
                .t(format!("Bounded model checking with the loop bound k = {k}: the Loop-Bound CPA stops every path after {k} iterations of any loop, and the block operator blk^never computes no abstraction, so every state keeps its whole path formula."))
                .done("BMC, Sect. 4.1 (A Unifying View on SMT-Based Software Verification)", "bmc"),
        },
        Event::StatePopped { state } if cx.execution() => {
            let mut s = say().t("The run goes on from ").s(*state);
            if let Some(l) = cx.state_line(*state) {
                s = s.t(" at ").l(Some(l));
            }
            s.t(": it executes the program edge by edge with the exact C semantics up to the next loop head, function entry, return or the end of the run (the runs still to go wait on a stack: after a split, the part with the smaller inputs goes first). At a loop head it compares the state with the previous arrival there, to see whether the loop can be accelerated.")
                .done(ACCEL, "acceleration")
        }
        Event::StatePopped { state } => {
            let code = cx.state_line(*state).and_then(|l| source_line(run, l));
            let mut s = say().t("Expanding ").s(*state);
            if let Some(l) = cx.state_line(*state) {
                s = s.t(" at ").l(Some(l));
                if let Some(code) = code {
                    s = s.t(" (").c(code).t(")");
                }
            }
            s.t(format!(", taken from the waitlist ({}). The transfer relation computes its successors along each outgoing CFA edge.", cx.order()))
                .done("CPA++, Algorithm 2 (A Unifying View on SMT-Based Software Verification)", "waitlist")
        }
        Event::StateAdded {
            state,
            location,
            parents,
            kind,
            target,
            ..
        } => {
            let merged_next = matches!(run.events.get(index + 1), Some(Event::Merged { .. }));
            let edge = parents.last().and_then(|(_, e)| cx.edge(*e));
            let mut s = say();
            if parents.is_empty() {
                s = s.t("The initial state ").s(*state).t(" enters the ARG at the entry of ").c("main").t(".");
                return s.done("CPA++, Algorithm 2 (A Unifying View on SMT-Based Software Verification)", "arg");
            }
            if cx.execution() {
                s = s.t("The run reaches ");
                if let Some(l) = cx.line(*location) {
                    s = s.l(Some(l)).t(" ");
                }
                s = s.t(format!("(location N{location}), after "));
                match edge {
                    Some(e) if !e.label.trim().is_empty() => s = s.c(short(&e.label)),
                    _ => s = s.t("a CFA edge"),
                }
                let class = matches!(e, Event::StateAdded { label, .. } if label.starts_with("input t"));
                return s
                    .t(": ")
                    .s(*state)
                    .t(if class {
                        " stands for the runs of every input value t its label shows (a class): they all took this path, and each variable's value is the affine form in t shown (a loop head, a function entry or exit, a return, or the end of the run)."
                    } else {
                        " holds the values of the variables there (a loop head, a function entry or exit, a return, or the end of the run)."
                    })
                    .done(ACCEL, "acceleration");
            }
            s = s.t("Transfer along ");
            if let Some(e) = edge {
                s = s.c(short(&e.label));
                if e.lines[0] > 0 {
                    s = s.t(" (").l(Some(e.lines[0])).t(")");
                }
            } else {
                // Only overflow checks add edges the page's CFA does not have.
                s = s.t("an overflow check's edge");
            }
            s = s.t(": new ");
            s = match kind {
                StateKind::Intermediate => s.t("intermediate state "),
                StateKind::Abstraction => s.t("state "),
                StateKind::Plain => s.t("state "),
            };
            let check = if *target {
                cx.overflow_check(*state)
            } else {
                None
            };
            if let Some(line) = check {
                s = s.s(*state).t(" at a failed overflow check");
                if line.is_some() {
                    s = s.t(" of ").l(line);
                }
                s = s.t(": a run that reaches it overflows a signed operation there (signed-overflow=check); a feasible path to it ends the run with UNKNOWN, a spurious one is refined away like any other");
            } else {
                s = s.s(*state).t(format!(" at location N{location}"));
                if *target {
                    s = s.t(", an error location");
                }
            }
            if cx.symbolic() {
                return s
                    .t(". Its values are the parent's after the edge, as terms over symbolic identifiers; an assumption over symbolic values becomes a path constraint. Only the variables the precision tracks at this location are kept, with the constraints that came from them.")
                    .done(SYMBOLIC_PAPER, "symbolic");
            }
            if cx.value() {
                return s
                    .t(". Its values are the parent's after the edge (an assignment with an unknown right-hand side forgets its variable), kept only for the variables the precision tracks at this location.")
                    .done(VALUE_PAPER, "value");
            }
            s = s.t(". Its path formula is the strongest postcondition of the edge applied to the block's path formula so far");
            if merged_next {
                s = s.t("; it joins a state of the same block (see the next event).");
            } else {
                s = s.t(".");
            }
            s.done("Predicate CPA, transfer relation (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "transfer")
        }
        Event::Merged { old, into, removed } => {
            let mut s = say()
                .t("merge_P: the new successor and ")
                .s(*old)
                .t(" are intermediate states of the same block at the same location, so they are merged into ")
                .s(*into)
                .t(", whose path formula is the disjunction of both (inside a block no precision is lost).");
            if removed.len() > 1 {
                s = s.t(format!(" {} states leave the ARG with it.", removed.len()));
            }
            s.done("Predicate CPA, merge operator merge_P (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "merge")
        }
        Event::Covered { state, by } => {
            let forced = index > 0
                && matches!(run.events.get(index - 1), Some(Event::Strengthened { state: s, .. }) if s == state);
            let f = cx.state_label(*state).unwrap_or_else(|| "ψ".into());
            let g = cx.state_label(*by).unwrap_or_else(|| "ψ'".into());
            let s = say().s(*state).t(" is covered by ").s(*by).t(": its abstraction formula ").f(f.clone()).t(" implies ").s(*by).t("'s ").f(g.clone());
            if forced {
                s.t(". Forced covering strengthened it with the coverer's formula, which its path implies, so it is not expanded.")
                    .done("forced covering fcover (Sect. 3.3 of A Unifying View on SMT-Based Software Verification)", "fcover")
            } else {
                s.t(", so stop_P does not put it into the waitlist: everything it represents is already represented.")
                    .done("Predicate CPA, stop operator stop_P (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "stop")
            }
        }
        Event::Uncovered { state } => say()
            .s(*state)
            .t(" is no longer covered: its coverer was strengthened or removed, so its coverage must be checked again and it may be expanded.")
            .done("IMPACT refinement, coverage recheck (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "stop"),
        Event::Infeasible { parent, edge } => {
            let mut s = say().t("The successor of ").s(*parent).t(" along ");
            match cx.edge(*edge) {
                Some(e) => {
                    s = s.c(short(&e.label));
                    if e.lines[0] > 0 {
                        s = s.t(" (").l(Some(e.lines[0])).t(")");
                    }
                }
                None => s = s.t("its edge"),
            }
            s.t(" is infeasible: its formula is unsatisfiable or its abstraction is ")
                .f("false")
                .t(", so no state is added.")
                .done("Predicate CPA, transfer and prec_P (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "transfer")
        }
        Event::Cut { state, reason } => match reason {
            CutReason::LoopBound => say()
                .s(*state)
                .t(" reached the loop bound: the Loop-Bound CPA produces no successor, so longer paths are not explored (only the forward condition can tell whether that misses any).")
                .done("Loop-Bound CPA (Sect. 4.1 of A Unifying View on SMT-Based Software Verification)", "bmc"),
            CutReason::RecursionDepth => say()
                .s(*state)
                .t(" calls a function deeper than the recursion depth bound: the call is not followed, and the verdict TRUE is impossible while such cuts remain.")
                .done("Callstack CPA, recursion bound", "cegar"),
        },
        Event::Abstraction {
            state,
            location,
            formula,
            predicates,
            block,
            queries,
        } => {
            let line = cx.line(*location);
            let cartesian = cx
                .config
                .is_some_and(|c| c.predicate.abstraction == AbstractionKind::Cartesian);
            let mut s = say().t(format!("The block ends at {}", cx.block_end(*location)));
            if line.is_some() {
                s = s.t(", ").l(line);
            }
            if predicates.is_empty() {
                s = s
                    .t(": the precision has no predicates here yet, so the abstraction of the block formula ")
                    .f(block.clone())
                    .t(" is ")
                    .f(formula.clone());
                if formula == "false" {
                    s = s.t(" (the block formula is unsatisfiable)");
                }
            } else {
                s = s
                    .t(format!(
                        ": the {} abstraction of the block formula ",
                        if cartesian { "Cartesian" } else { "Boolean" }
                    ))
                    .f(block.clone())
                    .t(" under the predicates {");
                for (i, p) in predicates.iter().enumerate() {
                    if i > 0 {
                        s = s.t(", ");
                    }
                    s = s.f(p.clone());
                }
                s = s.t("} is ").f(formula.clone());
            }
            s.t(format!(
                " ({queries} solver quer{}). ",
                if *queries == 1 { "y" } else { "ies" }
            ))
            .s(*state)
            .t(" becomes an abstraction state: its path formula restarts at ")
            .f("true")
            .t(".")
            .done("Predicate CPA, precision adjustment prec_P with blk (Sect. 3.1 of A Unifying View on SMT-Based Software Verification)", "abstraction")
        }
        Event::Strengthened { state, formula } => {
            let in_refinement = run.refinement_in_progress().is_some();
            let s = say().s(*state).t("'s abstraction formula is conjoined with ");
            if in_refinement {
                s.t("the interpolant at its position on the path: it is now ")
                    .f(formula.clone())
                    .t(" (IMPACT refines the states themselves instead of the precision).")
                    .done("IMPACT refinement (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "impact")
            } else {
                s.t("a coverer's formula that its path implies: it is now ")
                    .f(formula.clone())
                    .t(".")
                    .done("forced covering fcover (Sect. 3.3 of A Unifying View on SMT-Based Software Verification)", "fcover")
            }
        }
        Event::TargetReached { state } => {
            if let Some(line) = cx.overflow_check(*state) {
                let mut s = say().s(*state).t(" is at a failed overflow check");
                if line.is_some() {
                    s = s.t(" (").l(line).t(")");
                }
                return s
                    .t(": a signed operation there can overflow on this abstract path. With signed-overflow=check the operations are encoded as mathematical integers where their checks pass, so this path is checked like a path to the error location: if it is feasible, a run overflows and the analysis ends with UNKNOWN (the wrap-around continues where the checked encoding cannot follow); if not, refinement removes it.")
                    .done("CPA++ abort, Algorithm 2; CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar");
            }
            let mut s = say().s(*state).t(" is at the error location");
            if let Some(l) = cx.state_line(*state) {
                s = s.t(" (").l(Some(l)).t(")");
            }
            if cx.execution() {
                return s
                    .t(": the run reached it, so the program is unsafe; the counterexample is the concrete run (for the smallest input value of its class, where it read inputs).")
                    .done(ACCEL, "acceleration");
            }
            s.t(" and its abstraction is not ")
            .f("false")
            .t(": CPA++ stops (abort) and CEGAR checks the abstract counterexample that leads there.")
            .done("CPA++ abort, Algorithm 2; CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar")
        }
        Event::Counterexample {
            states,
            blocks,
            feasible,
            cut,
        } => {
            if (cx.value() || cx.combined()) && !*cut {
                let n = blocks.len();
                let s = say().t(format!("The path to the error state {} has {n} edges. Its path formula ", states.last().copied().unwrap_or(0)));
                return if *feasible {
                    s.t("is satisfiable: the error is reachable, confirmed by executing the program concretely with the model's values.")
                        .done(cx.value_paper(), "counterexample")
                } else {
                    s.t(if cx.symbolic() {
                        "is unsatisfiable: the path is spurious; the analysis forgot values or constraints it needs."
                    } else {
                        "is unsatisfiable: the path is spurious; the analysis forgot values it needs."
                    })
                    .done(cx.value_paper(), "counterexample")
                };
            }
            let mut s = say().t(if *cut {
                "The abstract path to a call beyond the recursion bound goes through the abstraction states "
            } else {
                "The abstract counterexample goes through the abstraction states "
            });
            for (i, id) in states.iter().take(12).enumerate() {
                if i > 0 {
                    s = s.t(" → ");
                }
                s = s.s(*id);
            }
            if states.len() > 12 {
                s = s.t(" → …");
            }
            let n = blocks.len();
            if *cut && *feasible {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is satisfiable: the call is reachable, and what it would do is beyond the bound, so the analysis cannot prove the program."))
                    .done("recursion depth bound of the callstack CPA; refine_P, feasibility check (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else if *cut {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is unsatisfiable: the call is not reachable, so the path is refined away like a spurious counterexample."))
                    .done("recursion depth bound of the callstack CPA; refine_P, abstract counterexample (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else if *feasible && states.last().is_some_and(|&t| cx.overflow_check(t).is_some()) {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is satisfiable: a signed overflow is reachable. The model's values were confirmed by executing the program concretely."))
                    .done("refine_P, feasibility check (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else if *feasible {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is satisfiable: the error is reachable. The model's values were confirmed by executing the program concretely."))
                    .done("refine_P, feasibility check (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            } else {
                s.t(format!(". Its path formula (the conjunction of its {n} block formulas) is unsatisfiable: the path is spurious, so the abstraction is too coarse and must be refined."))
                    .done("refine_P, abstract counterexample (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "counterexample")
            }
        }
        Event::Interpolants {
            states,
            interpolants,
        } => {
            let labelled: Vec<(u32, &String)> = states
                .iter()
                .zip(interpolants.iter())
                .filter(|(_, t)| *t != "true" && *t != "false")
                .map(|(a, b)| (*a, b))
                .collect();
            let binary = cx.config.and_then(|c| c.trace_refinement.binary());
            if let (Some(mode), [(st, itp)]) = (binary, labelled.as_slice()) {
                let (name, why) = match mode {
                    BinaryMode::Forward => ("FW_BIN_ITP", "the path up to it is feasible (the longest feasible prefix), and the interpolant follows from that prefix and contradicts the next step"),
                    BinaryMode::Backward => ("BW_BIN_ITP", "the path from it to the error is feasible (the longest feasible suffix), and the interpolant follows from the step into it and contradicts that suffix"),
                    BinaryMode::MinPrune => ("MIN_PRUNE", "of the forward and the backward binary interpolant, this one cuts the path nearer the initial state"),
                    BinaryMode::MaxPrune => ("MAX_PRUNE", "of the forward and the backward binary interpolant, this one cuts the path nearer the error"),
                };
                return say()
                    .t(format!("One binary interpolant ({name}) instead of one per state: at "))
                    .s(*st)
                    .t(" ")
                    .f(itp.to_string())
                    .t(format!(": {why}. Every other state keeps "))
                    .f("true")
                    .t(if cx.value() {
                        "; its variables become tracked there."
                    } else {
                        "; its predicates are added there."
                    })
                    .done(EFFICIENT_PAPER, "interpolant");
            }
            let by_values = cx.value() || (cx.combined() && value_interpolants(interpolants));
            let mut s = say().t(if cx.symbolic() {
                "Interpolants for the path (the values and constraints each state must keep for the rest of the path to stay contradictory): "
            } else if cx.combined() && !by_values {
                "Explicit values cannot refute the path, so predicate interpolants are computed for its blocks (true inside a block): "
            } else if by_values {
                "Interpolants for the path (the values each state must keep for the rest of the path to stay contradictory): "
            } else {
                "Sequence interpolants for the blocks: "
            });
            let inner: Vec<(u32, &String)> = states
                .iter()
                .zip(interpolants.iter())
                .skip(1)
                .take(states.len().saturating_sub(2))
                .map(|(a, b)| (*a, b))
                .collect();
            if inner.is_empty() {
                s = s.t("the path has a single block, so there is nothing between ").f("true").t(" and ").f("false");
            }
            for (i, (st, itp)) in inner.iter().take(6).enumerate() {
                if i > 0 {
                    s = s.t("; ");
                }
                s = s.t("at ").s(*st).t(" ").f(itp.to_string());
            }
            if inner.len() > 6 {
                s = s.t("; …");
            }
            s.t(". Each follows from the blocks before it and, with the blocks after it, is unsatisfiable.")
                .done("refine_P, interpolation (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "interpolant")
        }
        Event::PrecisionRefined { added } => {
            let variables = cx.value() || (cx.combined() && added.iter().all(|(_, x)| is_variable(x)));
            let mut s = say().t(if variables { "Variables tracked from now on: " } else { "Predicates added: " });
            for (i, (loc, p)) in added.iter().take(8).enumerate() {
                if i > 0 {
                    s = s.t("; ");
                }
                s = s.f(p.clone()).t(format!(" at N{loc}"));
                if let Some(l) = cx.line(*loc) {
                    s = s.t(" (").l(Some(l)).t(")");
                }
            }
            if added.len() > 8 {
                s = s.t(format!("; and {} more", added.len() - 8));
            }
            if added.is_empty() {
                s = s.t("none new");
            }
            s.t(". The precision tracks them at these locations only (lazy abstraction).")
                .done("lazy predicate abstraction (Sect. 4.3 of A Unifying View on SMT-Based Software Verification)", "precision")
        }
        Event::Removed { states } => {
            let pivot = run
                .derived
                .refinements
                .iter()
                .rev()
                .find(|r| r.start <= index)
                .and_then(|r| r.pivot);
            let mut s = say().t(format!(
                "The ARG is cut back: {} state{} ",
                states.len(),
                if states.len() == 1 { "" } else { "s" }
            ));
            if let Some(p) = pivot {
                s = s.t("from the pivot ").s(p).t(" down ");
            }
            s.t("leave the ARG; they were computed with a precision too coarse to rule out the spurious path.")
                .done("lazy predicate abstraction, pivot (Sect. 4.3 of A Unifying View on SMT-Based Software Verification)", "pivot")
        }
        Event::Readded { states } => say()
            .states(states, 6)
            .t(" go back into the waitlist, to be expanded again with the refined precision.")
            .done("refine_P (Sect. 3.2 of A Unifying View on SMT-Based Software Verification)", "waitlist"),
        Event::Refined { refinement, .. } => {
            let s = say().t(format!("Refinement {refinement} is done: "));
            if cx.impact() {
                s.t("the strengthened states stay in the ARG and states they now cover are not expanded; CPA++ continues with the waitlist.")
                    .done("IMPACT refinement (Sect. 3.2); CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "impact")
            } else if cx.value() {
                s.t("CPA++ continues with the waitlist, now keeping the values of the newly tracked variables.")
                    .done(cx.value_paper(), "cegar")
            } else if cx.combined() {
                s.t("CPA++ continues with the waitlist, with the refined precision (tracked variables and predicates).")
                    .done(VALUE_PAPER, "cegar")
            } else {
                s.t("CPA++ continues with the waitlist, now abstracting with the new predicates.")
                    .done("CEGAR, Algorithm 4 (A Unifying View on SMT-Based Software Verification)", "cegar")
            }
        }
        Event::Enumerated {
            parent,
            values,
            exceeded,
            ..
        } => match exceeded {
            Some(k) => say()
                .t("The value along the edge from ")
                .s(*parent)
                .t(format!(" has more than {k} solutions under the path's constraints: the successor keeps it unknown."))
                .done("bounded enumeration (Efficient CEGAR, explicit domain)", "transfer"),
            None => say()
                .t("The value along the edge from ")
                .s(*parent)
                .t(format!(" has {} solutions under the path's constraints ({}): one successor each.", values.len(), values.join(", ")))
                .done("bounded enumeration (Efficient CEGAR, explicit domain)", "transfer"),
        },
        Event::SatCheck {
            parent, satisfiable, ..
        } => say()
            .t("The path constraints after ")
            .s(*parent)
            .t(if *satisfiable {
                " and this edge are satisfiable: the successor is explored. (Constraints that the values of an earlier model, all-0 or all-1 values, or one of their own constants or its neighbours satisfy are settled without the solver: the solver log can list fewer queries than checks.)"
            } else {
                " and this edge are unsatisfiable: the branch cannot be taken."
            })
            .done("constraints CPA, satisfiability check (symbolic execution with CEGAR)", "transfer"),
        Event::Certificate {
            states,
            blocks,
            queries,
            valid,
            failure,
        } => {
            let s = say().t(format!("Certificate check before TRUE: the formulas of the {states} reached abstraction states must hold initially and be preserved by every one of the {blocks} blocks leaving them, and no block may reach an error ({queries} solver queries)"));
            match (valid, failure) {
                (true, _) => s.t(": they form an inductive invariant that excludes the error, so the ARG is a proof."),
                (false, Some(f)) => s.t(format!(": it does not hold ({f}), so the run cannot answer TRUE.")),
                (false, None) => s.t(": it does not hold, so the run cannot answer TRUE."),
            }
            .done("safety certificate of the final ARG (A Unifying View on SMT-Based Software Verification, Sect. 3)", "verdict")
        }
        Event::Check {
            what,
            bound,
            satisfiable,
            formula_size,
        } => {
            let result = match satisfiable {
                Some(true) => "satisfiable",
                Some(false) => "unsatisfiable",
                None => "unknown to the solver",
            };
            let kind = cx.algorithm();
            let src: &'static str = if kind == Some(AlgorithmKind::KInduction) {
                "k-induction, Algorithm 3 (A Unifying View on SMT-Based Software Verification)"
            } else {
                "BMC, Sect. 4.1 (A Unifying View on SMT-Based Software Verification)"
            };
            let s = match what {
                CheckKind::Base => say()
                    .t(format!("Base case for k = {bound}: is an error location reachable within {bound} loop iterations? The disjunction of the error states' path formulas ({formula_size} terms) is {result}"))
                    .t(match satisfiable {
                        Some(true) => ": a bug.",
                        Some(false) => ": no bug up to this bound.",
                        None => ".",
                    }),
                CheckKind::Forward => say()
                    .t(format!("Forward condition for k = {bound}: can an execution run longer than the bound? The path formulas of the cut states are {result}"))
                    .t(match satisfiable {
                        Some(false) => ": no, the unrolling covers every execution, so the program is safe.",
                        Some(true) => ": yes, so the bound must grow.",
                        None => ".",
                    }),
                CheckKind::Step => say()
                    .t(format!("Inductive step for k = {bound}: can {bound} safe loop iterations from any state (satisfying the auxiliary invariants) be followed by an unsafe one? The formula is {result}"))
                    .t(match satisfiable {
                        Some(false) => ": no, the property is k-inductive, so the program is safe.",
                        Some(true) => ": yes, it is not k-inductive yet.",
                        None => ".",
                    }),
                CheckKind::Invariant => say()
                    .t(format!("Invariant check: an octagon analysis (constraints ±x ± y ≤ c) proposed invariants at {formula_size} loop head(s); do they hold on arrival, are they preserved by every path from one loop head to the next, and do they exclude every path to the error?"))
                    .t(match satisfiable {
                        Some(false) => " Yes: they are a proof, so the program is safe.",
                        Some(true) => " No: some obligation fails, so k-induction goes on.",
                        None => " The solver could not decide, so k-induction goes on.",
                    }),
                CheckKind::Summary => say()
                    .t(format!("Contract check: the program is recursive, so the unrolling cannot prove it at any bound. An interval analysis over the calls proposed contracts for {formula_size} recursive function(s): bounds on their return values. With every call replaced by its contract (any value in its bounds, any globals), is the program safe, and does every such function establish its contract at its exit from any arguments (its own recursive calls replaced the same way)?"))
                    .t(match satisfiable {
                        Some(false) => " Yes: by induction over the calls that return, the contracts hold in every run, so the program is safe.",
                        _ => " Not confirmed, so k-induction goes on.",
                    }),
                CheckKind::Candidates => say()
                    .t("Candidate check (Houdini): the program's own conditions and assignments (a condition, its non-strict relaxation, v <= e and v >= e for an assignment v = e) are candidate invariants at the loop heads. Starting from the octagon invariants, a candidate is kept when the whole set stays inductive (holds on arrival, preserved from loop head to loop head); ")
                    .t(match satisfiable {
                        Some(false) => format!("{formula_size} were kept, and with them no path reaches the error: a proof, so the program is safe."),
                        _ => "the candidates kept do not exclude the error (or none was kept), so k-induction goes on.".to_string(),
                    }),
            };
            s.done(src, if kind == Some(AlgorithmKind::KInduction) { "kinduction" } else { "bmc" })
        }
        Event::BoundIncreased { bound } => say()
            .t(format!("The bound grows to k = {bound}: the ARG is unrolled again with the new loop bound."))
            .done(
                if cx.algorithm() == Some(AlgorithmKind::KInduction) {
                    "k-induction, Algorithm 3 (A Unifying View on SMT-Based Software Verification)"
                } else {
                    "BMC, Sect. 4.1 (A Unifying View on SMT-Based Software Verification)"
                },
                "bmc",
            ),
        Event::Accelerated {
            from,
            state,
            line,
            iterations,
            changes,
            ..
        } => {
            let mut s = say()
                .t("Acceleration: the last iteration of the loop at ")
                .l(Some(*line))
                .t(" took one path and changed every variable by a constant. Executed again with the iteration count as a parameter, the path repeats as long as its conditions hold; they are linear in the count, so the run jumps from ")
                .s(*from)
                .t(format!(" over {iterations} more iteration{} to ", if *iterations == 1 { "" } else { "s" }))
                .s(*state);
            if !changes.is_empty() {
                s = s.t(": ");
                for (i, (v, c)) in changes.iter().take(6).enumerate() {
                    if i > 0 {
                        s = s.t(", ");
                    }
                    s = s.c(v.as_str()).t(format!(" goes {c}"));
                }
            }
            s.t(". The last skipped iteration was executed concretely to check the jump.")
                .done(ACCEL, "acceleration")
        }
        Event::Component {
            index,
            of,
            component,
            previous,
            ..
        } => {
            let mut s = say();
            if let Some(p) = previous {
                s = s.t(format!("The previous component ended without a verdict ({p}). "));
            }
            s.t(format!("Portfolio component {} of {of}: ", index + 1))
                .c(component.as_str())
                .t(". It runs on a fresh ARG until it decides or until its budget of solver queries (the number after @, a count, so the run replays exactly) or its own limits are used; then the next component starts. Its TRUE or FALSE is the portfolio's.")
                .done("sequential portfolio (verification power: a portfolio of the presets)", "portfolio")
        }
        Event::Verdict { verdict, reason } => match verdict {
            VerdictKind::True => {
                // k-induction's proof: the step case, or a check of invariants or contracts.
                let proof = run.events[..index.min(run.events.len())]
                    .iter()
                    .rev()
                    .find_map(|e| match e {
                        Event::Check { what, .. } => Some(*what),
                        _ => None,
                    });
                let why = match cx.algorithm() {
                    Some(AlgorithmKind::KInduction) if proof == Some(CheckKind::Invariant) => "the octagon invariants hold on arrival, are preserved from loop head to loop head, and exclude the error",
                    Some(AlgorithmKind::KInduction) if proof == Some(CheckKind::Summary) => "with every call of a recursive function replaced by its contract the program is safe, and each such function establishes its contract (the checks need no recursion depth bound)",
                    Some(AlgorithmKind::KInduction) if proof == Some(CheckKind::Candidates) => "the octagon invariants and the candidate invariants kept from the program's conditions and assignments hold on arrival, are preserved from loop head to loop head, and exclude the error",
                    Some(AlgorithmKind::Bmc) => "the forward condition holds: no execution is longer than the bound, and none within it reaches the error",
                    Some(AlgorithmKind::KInduction) => "the property holds in the base case and is k-inductive",
                    Some(AlgorithmKind::Execution) => "every run ends (or repeats a state forever) without reaching the error: without inputs the run is the program's only execution; with inputs the classes cover every input value and all runs of a class take one path",
                    _ => "the waitlist is empty and no reached state is an abstract error state: the ARG is a proof (every state is expanded or covered)",
                };
                say().t(format!("TRUE: {why}.")).done(UV, "verdict")
            }
            VerdictKind::False => say()
                .t("FALSE: a counterexample is feasible and its concrete execution reaches the error; the Counterexample tab steps through it with the values of the variables.")
                .done(UV, "verdict"),
            VerdictKind::Unknown => say()
                .t(format!(
                    "UNKNOWN: {}.",
                    reason.as_deref().unwrap_or("the analysis gave up")
                ))
                .done(UV, "verdict"),
        },
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

fn short_code(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        s.chars().take(MAX - 1).collect::<String>() + "…"
    }
}

/// Whether the texts of a refutation are value interpolants (`x = 1, y = 2`, `true`, `false`)
/// rather than formulas (predicate interpolants are printed as S-expressions).
fn value_interpolants(texts: &[String]) -> bool {
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

/// Glossary entries: key, term, definition.
/// The value analysis' sources, as the explanations cite them.
const EFFICIENT_PAPER: &str = "binary interpolation, Sect. 3.2.1 and 3.2.3 (Hajdu, Micskei: Efficient Strategies for CEGAR-Based Model Checking)";
const SYMBOLIC_PAPER: &str = "symbolic execution with CEGAR (Lemberger: Effective Symbolic Execution in CPAchecker with compositional CEGAR)";
const ACCEL: &str = "concrete execution with path acceleration (Kroening, Lewis, Weissenbacher: Under-approximating Loops in C Programs for Fast Counterexample Detection)";

const VALUE_PAPER: &str = "explicit-value analysis with CEGAR and interpolation (Beyer, Löwe: Explicit-State Software Model Checking Based on CEGAR and Interpolation)";

pub const GLOSSARY: &[(&str, &str, &str)] = &[
    ("value", "Explicit-value analysis", "Each state maps the tracked variables to their known values; an operation whose result is unknown makes its variable unknown. The precision, the variables tracked at each location, grows by refinement: value interpolation finds which values a spurious path needs."),
    ("symbolic", "Symbolic execution", "Each state maps the tracked variables to values that are numbers or terms over symbolic identifiers (fresh unknowns such as $s0), and keeps the path constraints over those identifiers; a branch whose constraints are unsatisfiable is not taken. The precision, the variables tracked at each location, grows by refinement: interpolation finds which values and constraints a spurious path needs."),
    ("arg", "Abstract reachability graph (ARG)", "The abstract states the analysis has reached, with an edge from each state to the successors computed from it along a CFA edge. Dashed edges point from covered states to the states that cover them."),
    ("waitlist", "Waitlist", "The reached states not yet expanded. CPA++ takes one state at a time from it (in the configured order) and computes its successors."),
    ("transfer", "Transfer relation", "Computes the successor of an abstract state along a CFA edge. The Predicate CPA keeps the abstraction formula and extends the path formula by the strongest postcondition of the edge's operation."),
    ("merge", "Merge operator", "Decides whether a new state is combined with a reached one. merge_P joins intermediate states of the same block (same abstraction formula and location) by disjunction of their path formulas; abstraction states are never merged."),
    ("stop", "Stop operator (coverage)", "Decides whether a new state needs to be explored. stop_P checks abstraction states: a state is covered if its abstraction formula implies that of a reached abstraction state at the same location."),
    ("abstraction", "Predicate abstraction", "At the end of a block (decided by the block operator blk), the block formula is abstracted to the strongest Boolean combination of the precision's predicates it implies (Boolean abstraction, by AllSAT), or to the conjunction of the predicates it implies (Cartesian). The state becomes an abstraction state."),
    ("precision", "Precision", "The predicates the abstraction may use, per program location. It starts empty and grows by refinement, only where needed (lazy abstraction)."),
    ("cegar", "CEGAR", "Counterexample-guided abstraction refinement: explore with a coarse abstraction; when an error state is reached, check the abstract path; if it is spurious, refine the abstraction with interpolants and continue."),
    ("counterexample", "Abstract counterexample", "The sequence of abstraction states from the initial state to the error state. Its path formula is the conjunction of the block formulas between them: satisfiable means a real bug, unsatisfiable a spurious path."),
    ("interpolant", "Sequence interpolants", "For an unsatisfiable sequence of block formulas, one formula per position that follows from the blocks before it, is inconsistent with the blocks after it, and speaks only of the variables they share. Its atoms become predicates."),
    ("pivot", "Pivot", "The first state on the spurious path whose abstraction changes with the new predicates. The ARG below it is removed and regrown (lazy predicate abstraction)."),
    ("impact", "IMPACT", "Lazy abstraction with interpolants: instead of adding predicates, refinement conjoins each interpolant to the abstraction formula of the state at its position; coverage is then rechecked."),
    ("fcover", "Forced covering", "IMPACT's attempt to cover a new state at once: if its path implies the formula of a reached state at the same location, it is strengthened with that formula and covered."),
    ("bmc", "Bounded model checking", "Unroll the program up to a loop bound k without abstraction and ask the solver whether an error state is reachable; the forward condition checks whether longer executions exist at all."),
    ("kinduction", "k-induction", "Prove safety by induction over loop iterations: the base case is BMC with bound k; the inductive step checks that k safe iterations from any state (strengthened by auxiliary invariants) cannot be followed by an unsafe one."),
    ("acceleration", "Loop acceleration", "When one iteration of a loop takes a path that changes every variable by a constant (or resets it), the iterations after it repeat that path exactly as long as the path's conditions hold; they are linear in the iteration count, so the first failing count is computed and the run jumps there in one step. Nested loops whose inner counts are linear in the outer counters are skipped level by level."),
    ("portfolio", "Portfolio", "Several analyses run one after another on the same program, each with a budget of solver queries; the first TRUE or FALSE is the answer and names the component that decided, and a component that ends without one hands over to the next."),
    ("verdict", "Verdict", "TRUE: the property holds (with a proof); FALSE: a bug, with a concrete counterexample confirmed by execution; UNKNOWN: the analysis gave up, with the reason (a limit, an unsupported feature, an incomplete proof)."),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::RunConfig;
    use crate::state::{Action, Playground, Target};
    use crate::worker::run_host::RunHost;
    use solver_bridge::solver::NativeZ3;
    use std::rc::Rc;

    /// Runs `src` to the end on z3 and explains every event.
    fn explain_all(src: &str, preset: &str) -> Vec<String> {
        explain_run(src, RunConfig::preset(preset))
    }

    fn explain_run(src: &str, run_config: RunConfig) -> Vec<String> {
        let mut p = Playground::new(run_config.clone());
        let cfa = cpa_engine::report::cfa_report("t.c", src).cfa.map(Rc::new);
        p.reduce(Action::Program {
            file: "t.c".into(),
            source: Rc::from(src),
            cfa,
        });
        let config = run_config.resolve().unwrap();
        let (mut host, info) =
            RunHost::new("t.c", src, &run_config, NativeZ3::new().unwrap(), None).unwrap();
        let ticket = p.run.as_ref().unwrap().ticket();
        p.reduce(Action::Started(ticket, Ok(info)));
        let mut batches = Vec::new();
        let progress = host.advance(
            cpa_engine::session::Granularity::End,
            None,
            false,
            &mut |b| batches.push(b),
        );
        for b in batches {
            p.reduce(Action::Batch(ticket, b));
        }
        p.reduce(Action::Advanced(ticket, Ok(progress)));
        p.reduce(Action::Reset);
        let mut out = Vec::new();
        loop {
            p.reduce(Action::Step(Target::Event));
            let run = p.run.as_ref().unwrap();
            let (i, e) = run.current_event().unwrap();
            let running = config.running(run.cursor.frame.view.component.as_deref());
            let cx = Context {
                run,
                config: Some(&running),
            };
            let x = explain(&cx, i, e);
            assert!(!x.pieces.is_empty());
            assert!(!x.source.is_empty());
            assert!(
                GLOSSARY.iter().any(|(k, _, _)| *k == x.glossary),
                "{}",
                x.glossary
            );
            out.push(x.plain());
            if run.position == run.events.len() {
                break;
            }
        }
        out
    }

    #[test]
    fn a_proof_by_function_contracts_is_explained() {
        let text = explain_all(
            include_str!("../../../tests/verdicts/recursion-contract-safe.c"),
            "kinduction",
        );
        assert!(
            text.iter().any(|t| t.starts_with("Contract check:")
                && t.contains("2 recursive function(s)")
                && t.contains("Yes: by induction")),
            "{text:#?}"
        );
        assert!(
            text.last().unwrap().starts_with(
                "TRUE: with every call of a recursive function replaced by its contract"
            ),
            "{text:#?}"
        );
    }

    #[test]
    fn a_failed_overflow_check_is_explained_as_one() {
        let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 0) { x = x + 1; if (x < 0) reach_error(); }\n  return 0;\n}\n";
        let text = explain_run(
            src,
            RunConfig {
                preset: "predicate-lbe".into(),
                set: vec![("signed-overflow".into(), "check".into())],
            },
        );
        let at_check: Vec<&String> = text
            .iter()
            .filter(|t| t.contains("failed overflow check"))
            .collect();
        assert!(
            at_check
                .iter()
                .any(|t| t.contains("is at a failed overflow check (line 5)")),
            "{text:#?}"
        );
        assert!(
            !text.iter().any(|t| t.contains("is at the error location")
                || t.contains(", an error location")
                || t.contains("a CFA edge")),
            "{text:#?}"
        );
        assert!(text.last().unwrap().starts_with("UNKNOWN"), "{text:#?}");
        assert!(
            text.iter()
                .any(|t| t.contains("a signed overflow is reachable. The model")),
            "{text:#?}"
        );
    }

    #[test]
    fn every_event_of_a_refining_run_is_explained() {
        let text = explain_all(
            include_str!("../../../tests/verdicts/counter-unsafe.c"),
            "predicate-lbe",
        );
        assert!(
            text.iter().any(|t| t.starts_with("Expanding state")),
            "{text:#?}"
        );
        assert!(text
            .iter()
            .any(|t| t.contains("is unsatisfiable: the path is spurious")));
        assert!(text.iter().any(|t| t.starts_with("Predicates added: ")));
        assert!(text.last().unwrap().starts_with("FALSE: "));
        let text = explain_all(
            include_str!("../../../tests/verdicts/impact-example.c"),
            "impact",
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        // With forced covering, a state is strengthened with a coverer's formula and covered.
        let text = explain_run(
            include_str!("../../../tests/verdicts/impact-example.c"),
            RunConfig {
                preset: "impact".into(),
                set: vec![("fcover".into(), "true".into())],
            },
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        assert!(
            text.iter()
                .any(|t| t.contains("Forced covering strengthened it")),
            "{text:#?}"
        );
        let text = explain_run(
            include_str!("../../../tests/verdicts/locks-value-safe.c"),
            RunConfig {
                preset: "value".into(),
                set: vec![("domain".into(), "value".into())],
            },
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        assert!(
            text.iter()
                .any(|t| t.starts_with("Variables tracked from now on: ")),
            "{text:#?}"
        );
        assert!(text.iter().any(|t| t.contains("the path is spurious")));
        // The value preset's combination tracks variables where values refute a path and
        // adds predicates where they cannot.
        let text = explain_all(
            include_str!("../../../tests/value/value-predicate-safe.c"),
            "value",
        );
        assert!(text.last().unwrap().starts_with("TRUE: "), "{text:#?}");
        for said in [
            "Variables tracked from now on: ",
            "Predicates added: ",
            "Explicit values cannot refute the path",
            "Interpolants for the path (the values each state must keep",
        ] {
            assert!(
                text.iter().any(|t| t.starts_with(said)),
                "{said}: {text:#?}"
            );
        }
        let text = explain_all(include_str!("../../../examples/max-bug.c"), "bmc");
        assert!(
            text.iter().any(|t| t.starts_with("Base case for k = ")),
            "{text:#?}"
        );
    }

    #[test]
    fn concrete_execution_explains_its_run_and_its_jumps() {
        let text = explain_all(
            include_str!("../../../examples/accel-nested.c"),
            "execution",
        );
        assert!(
            text[0].starts_with("The analysis starts: concrete execution"),
            "{text:#?}"
        );
        assert!(text
            .iter()
            .any(|t| t.starts_with("The run goes on from state 1")));
        let jump = text
            .iter()
            .find(|t| t.contains("over 268435453 more iterations"))
            .unwrap_or_else(|| panic!("{text:#?}"));
        assert!(jump.starts_with("Acceleration: "), "{jump}");
        assert!(
            jump.contains("x goes from 2 to 268435455 (+1 per iteration)"),
            "{jump}"
        );
        assert!(text
            .iter()
            .any(|t| t.contains("the run reached it, so the program is unsafe")));
        assert!(text.last().unwrap().starts_with("FALSE: "), "{text:#?}");
    }

    #[test]
    fn a_portfolio_explains_its_switches_and_each_component_in_its_own_terms() {
        let text = explain_all(
            include_str!("../../../examples/bmc-deep-bug.c"),
            "portfolio",
        );
        let switch = |n: usize| {
            text.iter()
                .find(|t| t.contains(&format!("Portfolio component {n} of 7")))
                .unwrap_or_else(|| panic!("{text:#?}"))
        };
        // Concrete execution meets a second input while the first is a class; k-induction's k-max of 6 is below the
        // bug's depth; predicate abstraction's budget ends before it decides.
        assert!(
            switch(2).contains("the run needs single input values"),
            "{}",
            switch(2)
        );
        assert!(
            switch(2).contains("kinduction(k-max=6;solver-rlimit=1000000)@300"),
            "{}",
            switch(2)
        );
        assert!(switch(3).contains("no bug up to bound 6"), "{}", switch(3));
        assert!(switch(3).contains("predicate-lbe@3000"), "{}", switch(3));
        assert!(
            switch(4).contains("its budget of 3000 solver queries is used"),
            "{}",
            switch(4)
        );
        assert!(
            switch(4).contains("predicate-lbe(signed-overflow=check)@3000"),
            "{}",
            switch(4)
        );
        assert!(
            switch(5).contains("its budget of 3000 solver queries is used"),
            "{}",
            switch(5)
        );
        assert!(
            switch(5).contains("symbolic(max-steps=2000)@2500"),
            "{}",
            switch(5)
        );
        // k-induction's checks are explained as k-induction's, symbolic execution's
        // satisfiability checks as the constraints CPA's.
        assert!(text
            .iter()
            .any(|t| t.starts_with("Inductive step for k = ")));
        assert!(text
            .iter()
            .any(|t| t.starts_with("The path constraints after ")));
        assert!(text.last().unwrap().starts_with("FALSE: "), "{text:#?}");
    }
}
