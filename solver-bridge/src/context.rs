//! The typed layer over a [`Solver`]: declarations, assertions, scopes, check-sat, models,
//! unsat cores, quantifier elimination.
//!
//! Commands that print nothing (declarations, assertions, push, pop, options) are buffered and
//! sent together with the next command that answers, so a typical query is one round trip.
//! Declarations are emitted automatically for the free variables of asserted terms, in name
//! order, so the text sent is a deterministic function of the calls made.
//!
//! Any error (a solver `(error ...)`, a dead process, an unreadable reply) poisons the context:
//! its assertions are then unknown, so every later call fails until [`SmtContext::reset`]. A
//! poisoned context never answers sat or unsat.

use crate::parse::{parse_term, Declarations};
use crate::sexp::{self, Item};
use crate::solver::{Solver, SolverError};
use crate::term::{is_simple_symbol, DagTerm, Sort, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::rc::Rc;

/// The answer to `check-sat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// With the solver's `:reason-unknown` (e.g. `max. resource limit exceeded`).
    Unknown(String),
}

/// Values of variables in a model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub values: BTreeMap<Var, Term>,
}

impl Model {
    /// The value of the variable named `name`.
    pub fn get(&self, name: &str) -> Option<&Term> {
        self.values
            .iter()
            .find(|(v, _)| &*v.name == name)
            .map(|(_, t)| t)
    }

    /// Substitutes the model into `t` (variables without a value stay).
    pub fn eval(&self, t: &Term) -> Term {
        t.substitute(&self.values)
    }
}

#[derive(Default, Clone, Debug)]
struct Scope {
    declared: BTreeMap<Rc<str>, Sort>,
    assertions: usize,
    names: BTreeSet<String>,
    /// [`Term::bit_blast_cells`] of the level's assertions (summed).
    cells: u64,
}

/// The tactic of [`SmtContext::check_sat_preprocessed`]: simplification, propagation of
/// values and elimination of variables by their equations before the SMT core.
pub const PREPROCESSING_TACTIC: &str = "(then simplify propagate-values solve-eqs smt)";

/// A tactic (`(apply qe)`) gets the resource limit divided by this.
pub const TACTIC_RLIMIT_DIVISOR: u64 = 5;

/// Resource-limit units per bit-level cell a query may need ([`Term::bit_blast_cells`]): a
/// query over `rlimit / RLIMIT_PER_CELL` cells is not sent (see [`SmtContext::check_sat`]).
/// With the default limit of 5,000,000 that is 78,125 cells (19 signed divisions of two
/// 64-bit variables, about 8 s and 800 MB in Z3 4.8.12).
pub const RLIMIT_PER_CELL: u64 = 64;

/// Boolean constants whose values an enumeration (AllSAT) asks after every `sat` answer and
/// then blocks: the `get-value` command and each constant's text are written once.
#[derive(Clone, Debug)]
pub struct BoolProjection {
    names: Vec<Var>,
    texts: Vec<String>,
    command: String,
}

impl BoolProjection {
    /// The projection onto `names`, which must be Boolean constants.
    pub fn new(names: &[Var]) -> Result<BoolProjection, SolverError> {
        if let Some(v) = names.iter().find(|v| v.sort != Sort::Bool) {
            return Err(usage(format!(
                "a Boolean projection cannot contain {} of sort {}",
                v.name, v.sort
            )));
        }
        let texts: Vec<String> = names.iter().map(|v| v.term().to_string()).collect();
        let command = format!("(get-value ({}))\n", texts.join(" "));
        Ok(BoolProjection {
            names: names.to_vec(),
            texts,
            command,
        })
    }

    /// The clause [`SmtContext::assert_blocking`] asserts: some constant differs from `values`.
    pub fn blocking_clause(&self, values: &[bool]) -> Term {
        Term::or(self.names.iter().zip(values).map(|(v, val)| {
            if *val {
                Term::not(v.term())
            } else {
                v.term()
            }
        }))
    }
}

/// A `get-value` reply of `n` Boolean constants: `((a true) (b false) ...)`.
fn parse_bool_values(reply: &str, n: usize) -> Result<Vec<bool>, SolverError> {
    let bad = || unexpected("Boolean values", reply);
    let pairs = sexp::list(reply).map_err(|_| bad())?;
    if pairs.len() != n {
        return Err(bad());
    }
    pairs
        .iter()
        .map(|p| {
            let kv = sexp::list(p.text).map_err(|_| bad())?;
            match kv.as_slice() {
                [_, value] if value.text == "true" => Ok(true),
                [_, value] if value.text == "false" => Ok(false),
                _ => Err(bad()),
            }
        })
        .collect()
}

/// The typed SMT context. See the module documentation.
pub struct SmtContext<S: Solver> {
    solver: S,
    pending: String,
    scopes: Vec<Scope>,
    poisoned: Option<String>,
    /// A check answered `unknown` since the last reset (see [`SmtContext::recover_from_failure`]).
    gave_up: bool,
    rlimit: Option<u64>,
    round_trips: u64,
    round_trip_limit: Option<u64>,
    /// Resource units (Z3's `rlimit` count) the solving commands used, summed over every
    /// round trip ([`SmtContext::work`]).
    work: u64,
    work_limit: Option<u64>,
    /// Outcomes of [`SmtContext::apply_tactic`], kept across resets (see there).
    tactic_memo: HashMap<TacticQuery, Result<Term, SolverError>>,
}

/// What [`SmtContext::apply_tactic`] was asked: the tactic, the resource limit in force and
/// the formula.
type TacticQuery = (String, Option<u64>, DagTerm);

/// Most tactic outcomes remembered; past this the memo starts afresh.
const MAX_TACTIC_MEMO: usize = 4096;

fn usage(message: impl Into<String>) -> SolverError {
    SolverError::Usage {
        message: message.into(),
    }
}

fn unexpected(expected: &str, reply: &str) -> SolverError {
    SolverError::UnexpectedReply {
        expected: expected.to_string(),
        reply: reply.to_string(),
    }
}

/// Names that cannot be declared: SMT-LIB's own function symbols and literals.
const BUILTIN_NAMES: &[&str] = &[
    "true", "false", "not", "and", "or", "=>", "xor", "=", "distinct", "ite", "-", "+", "*", "div",
    "mod", "abs", "<=", "<", ">=", ">",
];

impl<S: Solver> SmtContext<S> {
    /// A context over `solver`. The first query starts with `(reset)`, so whatever the solver
    /// held before is discarded.
    pub fn new(solver: S) -> SmtContext<S> {
        let mut c = SmtContext {
            solver,
            pending: String::new(),
            scopes: vec![Scope::default()],
            poisoned: None,
            gave_up: false,
            rlimit: None,
            round_trips: 0,
            round_trip_limit: None,
            work: 0,
            work_limit: None,
            tactic_memo: HashMap::new(),
        };
        c.pending = c.preamble();
        c
    }

    fn preamble(&self) -> String {
        // Horner's scheme and tangent lemmas in Z3's nonlinear arithmetic do not check the
        // resource limit (Z3 4.8.12 ran check-sats with `:rlimit 300000` for minutes, found by
        // `cpa fuzz`; without them the same queries answer within a second): off. (The
        // engine's `auto` encoding sends no nonlinear integer arithmetic at all.)
        //
        // E-matching is off for the same reason: compiling the patterns of a quantifier into
        // Z3's matching code trees does not check the limit either (a certificate check of
        // the symbolic CPA, whose invariants quantify identifiers, ran for minutes under
        // `:rlimit 5000000`, fuzz program 6999; 0.7 s without). The engine's quantified
        // formulas are bit-vector formulas, which model-based instantiation decides anyway.
        let mut s = String::from(
            "(reset)\n(set-option :produce-models true)\n(set-option :produce-unsat-cores true)\n\
             (set-option :smt.arith.nl.horner false)\n(set-option :smt.arith.nl.tangents false)\n\
             (set-option :smt.ematching false)\n",
        );
        if let Some(n) = self.rlimit {
            let _ = writeln!(s, "(set-option :rlimit {n})");
        }
        s
    }

    pub fn solver(&self) -> &S {
        &self.solver
    }

    pub fn solver_mut(&mut self) -> &mut S {
        &mut self.solver
    }

    pub fn into_solver(self) -> S {
        self.solver
    }

    /// Number of `eval` calls made so far.
    pub fn round_trips(&self) -> u64 {
        self.round_trips
    }

    pub fn round_trip_limit(&self) -> Option<u64> {
        self.round_trip_limit
    }

    /// The current push depth (0 at the base level).
    pub fn level(&self) -> usize {
        self.scopes.len() - 1
    }

    /// Assertions currently in force (over all levels).
    pub fn assertion_count(&self) -> usize {
        self.scopes.iter().map(|s| s.assertions).sum()
    }

    pub fn is_poisoned(&self) -> bool {
        self.poisoned.is_some()
    }

    /// A per-query resource limit (Z3's `:rlimit`, a count of solver steps, not time); when it
    /// is exhausted `check_sat` answers `Unknown("max. resource limit exceeded")`. `None` lifts
    /// the limit.
    pub fn set_rlimit(&mut self, limit: Option<u64>) -> Result<(), SolverError> {
        self.check_poison()?;
        self.rlimit = limit;
        let _ = writeln!(self.pending, "(set-option :rlimit {})", limit.unwrap_or(0));
        Ok(())
    }

    /// At most `limit` round trips in all (`None`: no limit): later queries fail with
    /// [`SolverError::RoundTripLimit`] without reaching the solver. It bounds everything built
    /// on the context, interpolation's internal queries included, by a count.
    pub fn set_round_trip_limit(&mut self, limit: Option<u64>) {
        self.round_trip_limit = limit;
    }

    /// The resource units (Z3's `rlimit` count: a deterministic measure of the solver's work,
    /// not time) that every `check-sat`, `apply` and `simplify` so far used together. Each
    /// round trip that solves reads the count before and after its own commands, in the same
    /// text, so that only this context's solving is counted (not the preamble, not what a
    /// [`crate::solver::SharedSolver`] replays in a round trip of its own). Z3's count is
    /// deterministic on one build of Z3 (the same commands give the same count), but its
    /// native and WebAssembly builds count differently.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Adds `units` to [`SmtContext::work`]: work done for this context outside the solver
    /// (the in-house interpolation's simplex, [`crate::itp`]), counted in the same units so
    /// that one budget bounds a run's time however it is spent. Deterministic like the
    /// solver's count; the next solving command past the work limit is refused.
    pub fn charge(&mut self, units: u64) {
        self.work = self.work.saturating_add(units);
    }

    /// At most `limit` resource units of work in all ([`SmtContext::work`]; `None`: no
    /// limit): once the work has reached it, later solving commands fail with
    /// [`SolverError::WorkLimit`] without reaching the solver (others still run). The query
    /// that crosses the limit still finishes (the per-query limit bounds it), so no run
    /// outlasts the limit by more than one query.
    pub fn set_work_limit(&mut self, limit: Option<u64>) {
        self.work_limit = limit;
    }

    /// The work limit in force ([`SmtContext::set_work_limit`]).
    pub fn work_limit(&self) -> Option<u64> {
        self.work_limit
    }

    /// The per-query resource limit in force.
    pub fn rlimit(&self) -> Option<u64> {
        self.rlimit
    }

    /// Clears everything (assertions, declarations, levels, poisoning); the rlimit is kept.
    pub fn reset(&mut self) -> Result<(), SolverError> {
        self.clear();
        self.flush()
    }

    /// Forgets the context's state; the solver's `(reset)` goes with the next query.
    fn clear(&mut self) {
        self.scopes = vec![Scope::default()];
        self.poisoned = None;
        self.gave_up = false;
        self.pending = self.preamble();
    }

    /// After the solver gave up (Z3 then also refuses commands such as the `push` or `pop`
    /// around the query with "canceled", which poisons the context; and when it does not,
    /// Z3 4.8.12 still carries the cancellation into later checks after the `pop`: a query
    /// it answers alone in 1 s comes back `unknown` ("canceled") once an earlier query of the
    /// same process ran out of resources): when the caller had no level open before its own
    /// (`outer` is the level it started from) and nothing is asserted at the base level,
    /// clears the context (a [`SmtContext::reset`], sent with the next query), which leaves
    /// it as the caller had it (the levels above are the failed work's) with a solver that
    /// has forgotten the failure. Returns whether it did.
    pub fn recover_from_failure(&mut self, outer: usize) -> bool {
        let canceled = self
            .poisoned
            .as_deref()
            .is_some_and(|c| c.contains("canceled") || c.contains("resource limit"));
        if (canceled || self.gave_up) && outer == 0 && self.scopes[0].assertions == 0 {
            // Not sent now: after a query that built a large circuit, Z3's `(reset)` takes
            // seconds to free it (3.7 s after 1 GB), which a run that ends here never needs.
            self.clear();
            return true;
        }
        false
    }

    fn check_poison(&self) -> Result<(), SolverError> {
        match &self.poisoned {
            Some(cause) => Err(SolverError::Poisoned {
                cause: cause.clone(),
            }),
            None => Ok(()),
        }
    }

    fn poison<T>(&mut self, e: SolverError) -> Result<T, SolverError> {
        self.poisoned = Some(e.to_string());
        Err(e)
    }

    /// Sends the buffered commands followed by `commands`; returns the reply's items after
    /// checking it for `(error ...)` and `unsupported`.
    fn send(&mut self, commands: &str) -> Result<String, SolverError> {
        self.check_poison()?;
        if self.pending.is_empty() && commands.is_empty() {
            return Ok(String::new());
        }
        let measured = solves(commands);
        // Refused unsent, the pending commands staying pending (a later limit may allow them).
        if let Some(limit) = self.round_trip_limit.filter(|l| self.round_trips >= *l) {
            return Err(SolverError::RoundTripLimit { limit });
        }
        // Only solving is refused: a `pop` after the last query still leaves the context as
        // its caller expects.
        if let Some(limit) = self.work_limit.filter(|l| measured && self.work >= *l) {
            return Err(SolverError::WorkLimit { limit });
        }
        let mut text = std::mem::take(&mut self.pending);
        let probe = if measured { WORK_PROBE } else { "" };
        text.push_str(probe);
        text.push_str(commands);
        text.push_str(probe);
        self.round_trips += 1;
        let reply = match self.solver.eval(&text) {
            Ok(r) => r,
            Err(e) => return self.poison(e),
        };
        // Counted before the reply is checked: a command the resource limit canceled with an
        // error did its work too.
        let work = if measured { work_between(&reply) } else { None };
        if let Some((used, _)) = work {
            self.work = self
                .work
                .saturating_add(used)
                .saturating_add(ROUND_TRIP_UNITS);
        }
        let items = match sexp::split(&reply) {
            Ok(i) => i,
            Err(_) => return self.poison(unexpected("well-formed output", &reply)),
        };
        for item in &items {
            if item.head() == Some("error") {
                let msg = sexp::list(item.text)
                    .ok()
                    .and_then(|l| l.get(1).and_then(|s| sexp::unquote_string(s.text)))
                    .unwrap_or_else(|| item.text.to_string());
                return self.poison(SolverError::Reported { message: msg });
            }
            if item.text == "unsupported" {
                return self.poison(SolverError::Unsupported {
                    query: commands.trim().to_string(),
                });
            }
        }
        if !measured {
            return Ok(reply);
        }
        match work {
            Some((_, rest)) => Ok(rest.to_string()),
            None => self.poison(unexpected("the resource counts around the query", &reply)),
        }
    }

    /// Sends the buffered commands now (to surface errors early; not needed for correctness).
    pub fn flush(&mut self) -> Result<(), SolverError> {
        let reply = self.send("")?;
        if !reply.trim().is_empty() {
            return self.poison(unexpected("no output", &reply));
        }
        Ok(())
    }

    fn sort_of(&self, name: &str) -> Option<Sort> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.declared.get(name).copied())
    }

    /// All symbols declared at the current level, as declarations for parsing replies.
    fn declarations(&self) -> Declarations {
        let vars: Vec<Var> = self
            .scopes
            .iter()
            .flat_map(|s| s.declared.iter().map(|(n, s)| Var::new(n, *s)))
            .collect();
        Declarations::from_vars(vars.iter())
    }

    pub fn is_declared(&self, v: &Var) -> bool {
        self.sort_of(&v.name) == Some(v.sort)
    }

    /// Declares `v` (nothing if already declared with the same sort).
    pub fn declare(&mut self, v: &Var) -> Result<(), SolverError> {
        self.check_poison()?;
        match self.sort_of(&v.name) {
            Some(s) if s == v.sort => return Ok(()),
            Some(s) => {
                return Err(usage(format!(
                    "{} is declared with sort {s}, used with sort {}",
                    v.name, v.sort
                )))
            }
            None => {}
        }
        if !Var::is_printable_name(&v.name) || BUILTIN_NAMES.contains(&&*v.name) {
            return Err(usage(format!(
                "{:?} cannot be used as a symbol name",
                v.name
            )));
        }
        let _ = writeln!(self.pending, "(declare-fun {v} () {})", v.sort);
        if let Some(top) = self.scopes.last_mut() {
            top.declared.insert(v.name.clone(), v.sort);
        }
        Ok(())
    }

    fn declare_free(&mut self, t: &Term) -> Result<(), SolverError> {
        for v in t.free_vars() {
            self.declare(&v)?;
        }
        Ok(())
    }

    /// Asserts a Bool term, declaring its free variables first.
    pub fn assert(&mut self, t: &Term) -> Result<(), SolverError> {
        self.check_poison()?;
        if t.sort() != Sort::Bool {
            return Err(usage(format!("asserted term is not Bool: {t}")));
        }
        self.declare_free(t)?;
        let _ = writeln!(self.pending, "(assert {t})");
        let cells = t.bit_blast_cells();
        if let Some(top) = self.scopes.last_mut() {
            top.assertions += 1;
            top.cells = top.cells.saturating_add(cells);
        }
        Ok(())
    }

    /// Asserts a Bool term under a name that unsat cores report.
    pub fn assert_named(&mut self, name: &str, t: &Term) -> Result<(), SolverError> {
        self.check_poison()?;
        if t.sort() != Sort::Bool {
            return Err(usage(format!("asserted term is not Bool: {t}")));
        }
        if !is_simple_symbol(name) || BUILTIN_NAMES.contains(&name) {
            return Err(usage(format!(
                "{name:?} cannot name an assertion (use a simple symbol)"
            )));
        }
        if self.scopes.iter().any(|s| s.names.contains(name)) || self.sort_of(name).is_some() {
            return Err(usage(format!("the name {name} is already in use")));
        }
        self.declare_free(t)?;
        let _ = writeln!(self.pending, "(assert (! {t} :named {name}))");
        let cells = t.bit_blast_cells();
        if let Some(top) = self.scopes.last_mut() {
            top.assertions += 1;
            top.cells = top.cells.saturating_add(cells);
            top.names.insert(name.to_string());
        }
        Ok(())
    }

    pub fn push(&mut self) -> Result<(), SolverError> {
        self.check_poison()?;
        self.pending.push_str("(push 1)\n");
        self.scopes.push(Scope::default());
        Ok(())
    }

    pub fn pop(&mut self) -> Result<(), SolverError> {
        self.check_poison()?;
        if self.scopes.len() <= 1 {
            return Err(usage("pop at the base level"));
        }
        self.pending.push_str("(pop 1)\n");
        self.scopes.pop();
        Ok(())
    }

    /// Checks the assertions in force. Under a resource limit, a query whose multiplications
    /// and divisions need more than `rlimit / RLIMIT_PER_CELL` bit-level cells is answered
    /// `unknown` without reaching the solver: Z3 builds those circuits without checking its
    /// limit ([`Term::bit_blast_cells`]), so the limit alone would not bound the query's time
    /// and memory.
    pub fn check_sat(&mut self) -> Result<SatResult, SolverError> {
        self.check_with("(check-sat)\n")
    }

    /// [`SmtContext::check_sat`] with Z3's preprocessing ([`PREPROCESSING_TACTIC`]): Z3 checks
    /// the assertions of a level opened by `push` with its incremental core, which skips the
    /// simplifications a one-shot query gets. Some queries are trivial after them and hard
    /// without: a certificate obligation that solving the equalities makes `false` (fuzz
    /// program 6999) took the incremental core 48,884 conflicts, the whole resource limit,
    /// and `check-sat-using` 695 resource units. The same resource limit bounds it.
    pub fn check_sat_preprocessed(&mut self) -> Result<SatResult, SolverError> {
        self.check_with(&format!("(check-sat-using {PREPROCESSING_TACTIC})\n"))
    }

    fn check_with(&mut self, command: &str) -> Result<SatResult, SolverError> {
        self.check_poison()?;
        if let Some(rlimit) = self.rlimit {
            let cells = self
                .scopes
                .iter()
                .fold(0u64, |n, s| n.saturating_add(s.cells));
            let budget = rlimit / RLIMIT_PER_CELL;
            if cells > budget {
                return Ok(SatResult::Unknown(format!(
                    "query too large: its multiplications and divisions need about {cells} \
                     bit-level cells, over the {budget} the resource limit allows"
                )));
            }
        }
        let reply = self.send(command)?;
        match reply.trim() {
            "sat" => Ok(SatResult::Sat),
            "unsat" => Ok(SatResult::Unsat),
            "unknown" => {
                let info = self.send("(get-info :reason-unknown)\n")?;
                let reason = sexp::list(&info)
                    .ok()
                    .and_then(|l| l.get(1).and_then(|s| sexp::unquote_string(s.text)))
                    .unwrap_or_else(|| info.trim().to_string());
                self.gave_up = true;
                Ok(SatResult::Unknown(reason))
            }
            _ => self.poison(unexpected("sat, unsat or unknown", &reply)),
        }
    }

    /// Asserts `t` in a fresh level, checks, and pops.
    pub fn check_sat_of(&mut self, t: &Term) -> Result<SatResult, SolverError> {
        self.push()?;
        self.assert(t)?;
        let r = self.check_sat()?;
        self.pop()?;
        Ok(r)
    }

    /// `(get-value ...)` after a `sat` answer: the values of `terms`, in order.
    pub fn get_values(&mut self, terms: &[Term]) -> Result<Vec<Term>, SolverError> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        for t in terms {
            for v in t.free_vars() {
                if !self.is_declared(&v) {
                    return Err(usage(format!("get-value: {} is not declared", v.name)));
                }
            }
        }
        let mut cmd = String::from("(get-value (");
        for (i, t) in terms.iter().enumerate() {
            if i > 0 {
                cmd.push(' ');
            }
            let _ = write!(cmd, "{t}");
        }
        cmd.push_str("))\n");
        let reply = self.send(&cmd)?;
        match self.parse_values(&reply, terms.len()) {
            Ok(v) => Ok(v),
            Err(e) => self.poison(e),
        }
    }

    /// The values of a projection's constants after a `sat` answer (a `get-value` of
    /// [`BoolProjection::command`], read as `true`/`false` without building terms).
    pub fn bool_values(&mut self, p: &BoolProjection) -> Result<Vec<bool>, SolverError> {
        if p.names.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(v) = p.names.iter().find(|v| !self.is_declared(v)) {
            return Err(usage(format!("get-value: {} is not declared", v.name)));
        }
        let reply = self.send(&p.command)?;
        match parse_bool_values(&reply, p.names.len()) {
            Ok(v) => Ok(v),
            Err(e) => self.poison(e),
        }
    }

    /// Asserts that the projection's constants do not all take `values` (the blocking clause
    /// of an enumeration): the same text as asserting [`BoolProjection::blocking_clause`].
    pub fn assert_blocking(
        &mut self,
        p: &BoolProjection,
        values: &[bool],
    ) -> Result<(), SolverError> {
        self.check_poison()?;
        if values.len() != p.names.len() {
            return Err(usage(format!(
                "{} values for a projection of {} constants",
                values.len(),
                p.names.len()
            )));
        }
        if let Some(v) = p.names.iter().find(|v| !self.is_declared(v)) {
            return Err(usage(format!("assert: {} is not declared", v.name)));
        }
        self.pending.push_str("(assert ");
        let literal = |out: &mut String, i: usize| {
            if values[i] {
                let _ = write!(out, "(not {})", p.texts[i]);
            } else {
                out.push_str(&p.texts[i]);
            }
        };
        match values.len() {
            0 => self.pending.push_str("false"),
            1 => literal(&mut self.pending, 0),
            n => {
                self.pending.push_str("(or");
                for i in 0..n {
                    self.pending.push(' ');
                    literal(&mut self.pending, i);
                }
                self.pending.push(')');
            }
        }
        self.pending.push_str(")\n");
        if let Some(top) = self.scopes.last_mut() {
            top.assertions += 1;
        }
        Ok(())
    }

    fn parse_values(&self, reply: &str, n: usize) -> Result<Vec<Term>, SolverError> {
        let bad = || unexpected("a get-value answer", reply);
        let pairs = sexp::list(reply).map_err(|_| bad())?;
        if pairs.len() != n {
            return Err(bad());
        }
        // A value is nearly always a literal: the declarations (rebuilt from every scope) are
        // built only for a value that mentions a symbol.
        let empty = Declarations::new();
        let mut decls: Option<Declarations> = None;
        pairs
            .iter()
            .map(|p| {
                let kv = sexp::list(p.text).map_err(|_| bad())?;
                let [_, value] = kv.as_slice() else {
                    return Err(bad());
                };
                parse_term(value.text, &empty)
                    .or_else(|_| {
                        let d = decls.get_or_insert_with(|| self.declarations());
                        parse_term(value.text, d)
                    })
                    .map_err(|e| unexpected(&format!("a value ({e})"), reply))
            })
            .collect()
    }

    /// The values of `vars` after a `sat` answer.
    pub fn model(&mut self, vars: &[Var]) -> Result<Model, SolverError> {
        let terms: Vec<Term> = vars.iter().map(|v| v.term()).collect();
        let values = self.get_values(&terms)?;
        Ok(Model {
            values: vars.iter().cloned().zip(values).collect(),
        })
    }

    /// The values of every declared symbol after a `sat` answer.
    pub fn full_model(&mut self) -> Result<Model, SolverError> {
        let vars = self.declarations().vars();
        self.model(&vars)
    }

    /// The names (from [`Self::assert_named`]) of an unsatisfiable subset, after `unsat`.
    pub fn unsat_core(&mut self) -> Result<Vec<String>, SolverError> {
        let reply = self.send("(get-unsat-core)\n")?;
        let items = match sexp::list(&reply) {
            Ok(i) => i,
            Err(_) => return self.poison(unexpected("an unsat core", &reply)),
        };
        Ok(items
            .iter()
            .map(|i| crate::parse::symbol_name(i.text))
            .collect())
    }

    /// Quantifier elimination by `(apply qe)`: a quantifier-free formula equivalent to `t`
    /// (which may contain `exists`/`forall`). `(apply ...)` works on all assertions, so this
    /// requires a context without assertions in force. Fails with `Unsupported` (the context
    /// stays usable) if Z3 leaves a quantifier.
    pub fn qe(&mut self, t: &Term) -> Result<Term, SolverError> {
        self.apply_tactic(t, "qe")
    }

    /// Applies a tactic (SMT-LIB text such as `qe` or `(then qe simplify)`) to `t` alone and
    /// returns the resulting formula; the goal must stay precise (an equivalent formula).
    ///
    /// Outcomes are remembered by tactic, resource limit and formula, across resets: the
    /// formula, a `Unsupported` failure (a quantifier left) and the tactic's resource limit.
    /// Interpolation asks the same projections again and again (the prefixes of related
    /// paths), and a tactic that runs out of resources does so in 1-2 s each time (`cpa
    /// fuzz`, seed 1, program 1465: `impact` sent one projection 14 times, 25 s). A remembered
    /// failure is returned without poisoning the context (nothing was sent). Deterministic:
    /// the memo depends only on the calls made.
    pub fn apply_tactic(&mut self, t: &Term, tactic: &str) -> Result<Term, SolverError> {
        self.check_poison()?;
        // Refused before the memo is consulted: with assertions in force the answer would
        // include them.
        if self.assertion_count() > 0 {
            return Err(usage(
                "apply needs a context without assertions (it would include them)",
            ));
        }
        let key = (tactic.to_string(), self.rlimit, DagTerm(t.clone()));
        if let Some(outcome) = self.tactic_memo.get(&key) {
            return outcome.clone();
        }
        let outcome = self.apply_tactic_now(t, tactic);
        let remembered = match &outcome {
            Ok(_) | Err(SolverError::Unsupported { .. }) => true,
            Err(SolverError::Reported { message }) => message.contains("resource limit"),
            Err(_) => false,
        };
        if remembered {
            if self.tactic_memo.len() >= MAX_TACTIC_MEMO {
                self.tactic_memo.clear();
            }
            self.tactic_memo.insert(key, outcome.clone());
        }
        outcome
    }

    /// [`SmtContext::apply_tactic`] without the memo (poisoning and assertions checked there).
    fn apply_tactic_now(&mut self, t: &Term, tactic: &str) -> Result<Term, SolverError> {
        if t.sort() != Sort::Bool {
            return Err(usage(format!("apply: not a Bool term: {t}")));
        }
        self.push()?;
        self.assert(t)?;
        // A tactic runs under a fifth of the query's resource limit: Z3's `qe` does not count
        // all its work, and its time grows faster than the limit (`exists x. y = c | x` on 32
        // bits: 0.5 s at 500,000, 1.6 s at 1,000,000, 15 s at 5,000,000, each time leaving the
        // quantifier; found by `cpa fuzz`).
        let cmd = match self.rlimit {
            Some(r) if r > 0 => format!(
                "(set-option :rlimit {})\n(apply {tactic})\n(set-option :rlimit {r})\n",
                (r / TACTIC_RLIMIT_DIVISOR).max(1)
            ),
            _ => format!("(apply {tactic})\n"),
        };
        let reply = self.send(&cmd)?;
        let decls = self.declarations();
        self.pop()?;
        match parse_goals(&reply, &decls) {
            Ok(r) if r.is_quantifier_free() => Ok(r.sorted_junctions()),
            // The context is consistent (popped above): no poisoning, the caller may try
            // something else.
            Ok(r) => Err(SolverError::Unsupported {
                // Not the formula itself: the reason reaches the verdict line, and the
                // formula can have tens of thousands of characters.
                query: format!(
                    "(apply {tactic}) could not eliminate every quantifier (what it left has {} characters)",
                    r.to_string().len()
                ),
            }),
            Err(e) => self.poison(e),
        }
    }

    /// Z3's `(simplify t)`: an equivalent, often smaller term.
    pub fn simplify(&mut self, t: &Term) -> Result<Term, SolverError> {
        self.declare_free(t)?;
        let reply = self.send(&format!("(simplify {t})\n"))?;
        match parse_term(&reply, &self.declarations()) {
            Ok(r) if r.sort() == t.sort() => Ok(r.sorted_junctions()),
            Ok(_) => self.poison(unexpected("a term of the same sort", &reply)),
            Err(e) => self.poison(unexpected(&format!("a term ({e})"), &reply)),
        }
    }
}

/// Asks Z3 for its resource count (`(:rlimit N)`, cumulative since the last `(reset)`).
const WORK_PROBE: &str = "(get-info :rlimit)\n";

/// What a solving round trip costs besides the solver's own count, in its units: the pipe or
/// the worker's call, Z3's parsing of the commands and the reply's, which `rlimit` does not
/// count, and the engine's own work per query (building, caching and reading terms).
/// Measured natively: predicate-lbe on const_1-2.c spends about 0.4 ms per query outside Z3
/// and outside the Farkas simplex, about 400 units at the 0.9-1.3 million units per second
/// Z3 counts on such runs' small queries (docs/benchmarks.md).
pub const ROUND_TRIP_UNITS: u64 = 400;

/// Whether `commands` make the solver work (the commands whose resource units
/// [`SmtContext::work`] counts).
fn solves(commands: &str) -> bool {
    ["(check-sat", "(apply ", "(simplify "]
        .iter()
        .any(|c| commands.contains(c))
}

/// The resource units used between the two probes that enclose a reply, and the reply
/// between them.
fn work_between(reply: &str) -> Option<(u64, &str)> {
    fn count(item: &str) -> Option<u64> {
        item.trim()
            .strip_prefix("(:rlimit ")?
            .strip_suffix(')')?
            .trim()
            .parse()
            .ok()
    }
    let body = reply.trim();
    let first_end = body.find(')')? + 1;
    let last_start = body.rfind("(:rlimit ")?;
    if last_start < first_end {
        return None;
    }
    let before = count(&body[..first_end])?;
    let after = count(&body[last_start..])?;
    Some((after.saturating_sub(before), &body[first_end..last_start]))
}

/// Reads `(goals (goal f1 ... :precision p :depth d) ...)` as the disjunction of the goals'
/// conjunctions.
fn parse_goals(reply: &str, decls: &Declarations) -> Result<Term, SolverError> {
    let bad = |why: &str| unexpected(&format!("a goals answer ({why})"), reply);
    let items = sexp::list(reply).map_err(|_| bad("not a list"))?;
    let Some((head, goals)) = items.split_first() else {
        return Err(bad("empty"));
    };
    if head.text != "goals" {
        return Err(bad("no goals keyword"));
    }
    let mut disjuncts = Vec::new();
    for g in goals {
        let parts = sexp::list(g.text).map_err(|_| bad("goal is not a list"))?;
        let Some((gh, rest)) = parts.split_first() else {
            return Err(bad("empty goal"));
        };
        if gh.text != "goal" {
            return Err(bad("no goal keyword"));
        }
        let mut conj = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let it: &Item = &rest[i];
            if it.text.starts_with(':') {
                let value = rest.get(i + 1).map(|v| v.text).unwrap_or("");
                if it.text == ":precision" && value != "precise" {
                    return Err(bad("the goal is not precise"));
                }
                i += 2;
                continue;
            }
            let f = parse_term(it.text, decls).map_err(|e| bad(&e.to_string()))?;
            if f.sort() != Sort::Bool {
                return Err(bad("a goal formula is not Bool"));
            }
            conj.push(f);
            i += 1;
        }
        disjuncts.push(Term::and(conj));
    }
    Ok(Term::or(disjuncts))
}
