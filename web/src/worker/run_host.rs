//! The worker's side of a verification run: one [`Session`] held across messages, stepped by
//! `advance` requests, its events and solver queries streamed to the page in [`Batch`]es.
//! Independent of the browser (the solver and the clock are parameters), so the native tests
//! run exactly this code on `z3 -in`.
//!
//! The solver log: a [`Tap`] below the solver bridge sees every round trip (the text sent and
//! the reply); a [`Purposes`] wrapper above it tells the tap which engine call (AllSAT,
//! interpolation, model, check) made it. After each step the events of that step settle the
//! purpose of its checks (feasibility in a refinement, a BMC check, an expansion).

use crate::protocol::{
    Batch, Progress, QueryEntry, QueryPurpose, RunConfig, RunInfo, UnitEnd, QUERY_EXCERPT,
};
use cpa_engine::events::Event;
use cpa_engine::parse_program;
use cpa_engine::session::{Granularity, Session};
use cpa_engine::smt::{BridgeSmt, Result as SmtResult, Sat, Smt};
use solver_bridge::solver::{Solver, SolverError};
use solver_bridge::term::Term;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The engine call a query belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Check,
    Model,
    AllSat,
    Interpolate,
}

struct RawQuery {
    query: String,
    reply: String,
    call: Option<Call>,
    ms: f64,
}

/// A clock in milliseconds (`performance.now()` in the worker).
pub type Clock = Box<dyn FnMut() -> f64>;

/// Records every round trip to the solver below the bridge.
struct Tap<S> {
    inner: S,
    call: Rc<Cell<Option<Call>>>,
    log: Rc<RefCell<Vec<RawQuery>>>,
    clock: Rc<RefCell<Option<Clock>>>,
}

impl<S: Solver> Solver for Tap<S> {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        let now = |c: &Rc<RefCell<Option<Clock>>>| c.borrow_mut().as_mut().map_or(0.0, |f| f());
        let start = now(&self.clock);
        let r = self.inner.eval(text);
        let ms = now(&self.clock) - start;
        self.log.borrow_mut().push(RawQuery {
            query: text.to_string(),
            reply: match &r {
                Ok(t) => t.clone(),
                Err(e) => format!("error: {e}"),
            },
            call: self.call.get(),
            ms,
        });
        r
    }
}

/// Marks which engine call the queries below it belong to.
struct Purposes<M> {
    inner: M,
    call: Rc<Cell<Option<Call>>>,
}

impl<M: Smt> Purposes<M> {
    fn during<T>(&mut self, c: Call, f: impl FnOnce(&mut M) -> T) -> T {
        self.call.set(Some(c));
        let r = f(&mut self.inner);
        self.call.set(None);
        r
    }
}

impl<M: Smt> Smt for Purposes<M> {
    fn check(&mut self, formulas: &[Term]) -> SmtResult<Sat> {
        self.during(Call::Check, |m| m.check(formulas))
    }
    fn check_uncached(&mut self, formulas: &[Term]) -> SmtResult<Sat> {
        self.during(Call::Check, |m| m.check_uncached(formulas))
    }
    fn check_uncached_values(
        &mut self,
        formulas: &[Term],
        terms: &[Term],
    ) -> SmtResult<(Sat, Option<Vec<Term>>)> {
        self.during(Call::Check, |m| m.check_uncached_values(formulas, terms))
    }
    fn check_preprocessed(&mut self, formulas: &[Term]) -> SmtResult<Sat> {
        self.during(Call::Check, |m| m.check_preprocessed(formulas))
    }
    fn model(&mut self, formulas: &[Term], terms: &[Term]) -> SmtResult<Option<Vec<Term>>> {
        self.during(Call::Model, |m| m.model(formulas, terms))
    }
    fn all_sat(
        &mut self,
        formula: &Term,
        bools: &[Term],
        limit: usize,
    ) -> SmtResult<Vec<Vec<bool>>> {
        self.during(Call::AllSat, |m| m.all_sat(formula, bools, limit))
    }
    fn interpolate(&mut self, sequence: &[Term]) -> SmtResult<Vec<Term>> {
        self.during(Call::Interpolate, |m| m.interpolate(sequence))
    }
    fn queries(&self) -> u64 {
        self.inner.queries()
    }
    fn cache_hits(&self) -> u64 {
        self.inner.cache_hits()
    }
    fn set_resource_limit(&mut self, limit: Option<u64>) -> SmtResult<()> {
        self.inner.set_resource_limit(limit)
    }
    fn resource_limit(&self) -> Option<u64> {
        self.inner.resource_limit()
    }
    fn set_interpolation(&mut self, strategy: solver_bridge::itp::Strategy) {
        self.inner.set_interpolation(strategy)
    }
    fn set_query_limit(&mut self, limit: Option<u64>) {
        self.inner.set_query_limit(limit)
    }
    fn work(&self) -> u64 {
        self.inner.work()
    }
    fn set_work_limit(&mut self, limit: Option<u64>) {
        self.inner.set_work_limit(limit)
    }
    fn reset(&mut self) -> SmtResult<()> {
        self.inner.reset()
    }
}

/// What the events of one step say about the checks it made.
fn purpose(call: Option<Call>, step: &[Event]) -> QueryPurpose {
    let refinement = step
        .iter()
        .any(|e| matches!(e, Event::Counterexample { .. }));
    let bound_check = step.iter().any(|e| matches!(e, Event::Check { .. }));
    match call {
        None => QueryPurpose::Setup,
        Some(Call::AllSat) => QueryPurpose::Abstraction,
        Some(Call::Interpolate) => QueryPurpose::Interpolation,
        Some(Call::Model) if bound_check || !refinement => QueryPurpose::Model,
        Some(Call::Model) => QueryPurpose::Feasibility,
        Some(Call::Check) if refinement => QueryPurpose::Feasibility,
        Some(Call::Check) if bound_check => QueryPurpose::BoundCheck,
        Some(Call::Check) => {
            // IMPACT's forced covering strengthens or covers before (or instead of) expanding.
            let expanded = step.iter().any(|e| matches!(e, Event::StateAdded { .. }));
            let covering = step
                .iter()
                .any(|e| matches!(e, Event::Strengthened { .. } | Event::Covered { .. }));
            if covering && !expanded {
                QueryPurpose::Coverage
            } else {
                QueryPurpose::Expansion
            }
        }
    }
}

fn excerpt(s: &str) -> String {
    match s.char_indices().nth(QUERY_EXCERPT) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// Batches are posted at least this often while a run streams (the page redraws per batch).
const BATCH_MS: f64 = 60.0;
/// ... and at the latest after this many events (the page's work per batch stays small).
const BATCH_EVENTS: usize = 4000;

/// One run in the worker.
pub struct RunHost {
    session: Session,
    /// The program and preset, for the run's witness.
    cfa: Rc<cpa_engine::Cfa>,
    file: String,
    source: String,
    preset: String,
    call: Rc<Cell<Option<Call>>>,
    raw: Rc<RefCell<Vec<RawQuery>>>,
    clock: Rc<RefCell<Option<Clock>>>,
    /// Every query of the run, whole (the page gets excerpts).
    queries: Vec<(String, String)>,
    solver_ms: f64,
    /// Events, step ends and queries not yet posted.
    sent_events: usize,
    units: Vec<UnitEnd>,
    pending_queries: Vec<QueryEntry>,
    /// After TRUE: the loop invariants of the run's witness, computed once.
    loop_invariants: std::cell::OnceCell<Vec<(u32, String)>>,
}

impl RunHost {
    /// Parses `source` and creates a session with `config` on `solver`. Errors are messages
    /// for the user (the page shows diagnostics from its own CFA request).
    pub fn new(
        file: &str,
        source: &str,
        config: &RunConfig,
        solver: impl Solver + 'static,
        clock: Option<Clock>,
    ) -> Result<(RunHost, RunInfo), String> {
        let config = config.resolve()?;
        let parsed = parse_program(file, source).map_err(|diags| {
            let first = diags
                .first()
                .map(|d| d.render(file))
                .unwrap_or_else(|| "the program does not parse".into());
            match diags.len() {
                0 | 1 => first,
                n => format!("{first} (and {} more)", n - 1),
            }
        })?;
        let cfa = Rc::new(parsed.cfa);
        let info = RunInfo {
            knobs: config
                .knobs()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            encoding: config.encoding.resolve(&cfa),
        };
        let call = Rc::new(Cell::new(None));
        let raw = Rc::new(RefCell::new(Vec::new()));
        let clock = Rc::new(RefCell::new(clock));
        let tap = Tap {
            inner: solver,
            call: call.clone(),
            log: raw.clone(),
            clock: clock.clone(),
        };
        let smt = Purposes {
            inner: BridgeSmt::new(tap),
            call: call.clone(),
        };
        let preset = config.preset.name().to_string();
        let session = Session::new(cfa.clone(), config, Box::new(smt));
        let mut host = RunHost {
            session,
            cfa,
            file: file.to_string(),
            source: source.to_string(),
            preset,
            call,
            raw,
            clock,
            queries: Vec::new(),
            solver_ms: 0.0,
            sent_events: 0,
            units: Vec::new(),
            pending_queries: Vec::new(),
            loop_invariants: std::cell::OnceCell::new(),
        };
        // Queries made while the session was created (solver options) belong to no step.
        host.collect_queries(0, 0);
        Ok((host, info))
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    fn now(&self) -> Option<f64> {
        self.clock.borrow_mut().as_mut().map(|f| f())
    }

    /// Moves the tap's records into the log, with their purposes from the events
    /// `at..end` of the step that made them.
    fn collect_queries(&mut self, at: usize, end: usize) {
        let raw: Vec<RawQuery> = std::mem::take(&mut *self.raw.borrow_mut());
        let step = &self.session.events()[at..end];
        for q in raw {
            self.solver_ms += q.ms;
            self.pending_queries.push(QueryEntry {
                index: self.queries.len() as u64,
                at: at as u64,
                purpose: purpose(q.call, step),
                query: excerpt(&q.query),
                query_len: q.query.chars().count() as u64,
                reply: excerpt(&q.reply),
                ms: q.ms,
            });
            self.queries.push((q.query, q.reply));
        }
        debug_assert!(self.call.get().is_none());
    }

    /// The batch of everything not posted yet (`None` if there is nothing).
    fn take_batch(&mut self) -> Option<Batch> {
        let events = &self.session.events()[self.sent_events..];
        if events.is_empty() && self.units.is_empty() && self.pending_queries.is_empty() {
            return None;
        }
        let batch = Batch {
            from: self.sent_events as u64,
            events: events.to_vec(),
            units: std::mem::take(&mut self.units),
            queries: std::mem::take(&mut self.pending_queries),
        };
        self.sent_events = self.session.events().len();
        Some(batch)
    }

    /// Steps until `g` is reached, the run ends or it has `until` events; `post` receives
    /// the batches (unless `quiet`: then everything is dropped, the page has it already).
    pub fn advance(
        &mut self,
        g: Granularity,
        until: Option<u64>,
        quiet: bool,
        post: &mut dyn FnMut(Batch),
    ) -> Progress {
        let mut last_post = self.now();
        loop {
            if self.session.is_finished() {
                break;
            }
            if until.is_some_and(|u| self.session.events().len() as u64 >= u) {
                break;
            }
            let before = self.session.events().len();
            // One unit with events (the session's `Event` granularity), so every step's
            // end and statistics are known.
            self.session.advance(Granularity::Event);
            let end = self.session.events().len();
            self.collect_queries(before, end);
            self.units.push(UnitEnd {
                events: end as u64,
                stats: self.session.stats(),
                solver_ms: self.solver_ms,
            });
            if quiet {
                self.sent_events = end;
                self.units.clear();
                self.pending_queries.clear();
            } else {
                let due = match (last_post, self.now()) {
                    (Some(t0), Some(t)) => t - t0 >= BATCH_MS,
                    _ => false,
                };
                if due || end - self.sent_events >= BATCH_EVENTS {
                    if let Some(b) = self.take_batch() {
                        post(b);
                    }
                    last_post = self.now();
                }
            }
            let new = &self.session.events()[before..end];
            // The engine's check ([`Granularity::reached_by`]) on this unit's events (with
            // `Event`, the first unit that has any ends the loop).
            if new.iter().any(|e| g.reached_by(e)) {
                break;
            }
        }
        if !quiet {
            if let Some(b) = self.take_batch() {
                post(b);
            }
        }
        self.progress()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            events: self.session.events().len() as u64,
            stats: self.session.stats(),
            solver_ms: self.solver_ms,
            verdict: self.session.verdict().cloned(),
            invariants: match self.session.verdict() {
                Some(cpa_engine::verdict::Verdict::True) => self
                    .loop_invariants
                    .get_or_init(|| self.loop_invariants())
                    .clone(),
                _ => Vec::new(),
            },
        }
    }

    /// After TRUE: the loop invariants of the run's correctness witness (line, C expression).
    fn loop_invariants(&self) -> Vec<(u32, String)> {
        let Some(v @ cpa_engine::verdict::Verdict::True) = self.session.verdict() else {
            return Vec::new();
        };
        let entry = cpa_engine::witness::of_run(
            &self.cfa,
            &self.file,
            &self.source,
            &self.preset,
            v,
            &self.session.invariants(),
            String::new(),
        );
        match entry {
            Some(cpa_engine::witness::Entry::InvariantSet { content, .. }) => content
                .into_iter()
                .filter(|e| e.invariant.kind == cpa_engine::witness::InvariantType::LoopInvariant)
                .filter_map(|e| Some((e.invariant.location.line, e.invariant.value?)))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The run's witness (SV-COMP format 2.0, YAML), as `cpa verify --witness` writes it,
    /// created at `creation_time`; an error while the run has no TRUE or FALSE.
    pub fn witness(&self, creation_time: &str) -> Result<String, String> {
        let verdict = self
            .session
            .verdict()
            .ok_or("the run has no verdict yet: run it to the end first")?;
        let entry = cpa_engine::witness::of_run(
            &self.cfa,
            &self.file,
            &self.source,
            &self.preset,
            verdict,
            &self.session.invariants(),
            creation_time.to_string(),
        )
        .ok_or("an UNKNOWN verdict has no witness")?;
        Ok(cpa_engine::witness::to_yaml(&[entry]))
    }

    /// The whole text of query `index` and its reply.
    pub fn query_text(&self, index: u64) -> Option<&(String, String)> {
        self.queries.get(usize::try_from(index).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solver_bridge::solver::NativeZ3;

    fn host(src: &str, preset: &str) -> RunHost {
        let z3 = NativeZ3::new().expect("the tests need z3");
        RunHost::new("t.c", src, &RunConfig::preset(preset), z3, None)
            .unwrap()
            .0
    }

    fn counter_unsafe() -> &'static str {
        include_str!("../../../tests/verdicts/counter-unsafe.c")
    }

    /// Everything streamed, joined.
    fn run_all(h: &mut RunHost, g: Granularity) -> (Vec<Event>, Vec<UnitEnd>, Vec<QueryEntry>) {
        let (mut ev, mut units, mut qs) = (Vec::new(), Vec::new(), Vec::new());
        while !h.session().is_finished() {
            h.advance(g, None, false, &mut |b: Batch| {
                assert_eq!(b.from as usize, ev.len(), "batches are contiguous");
                ev.extend(b.events);
                units.extend(b.units);
                qs.extend(b.queries);
            });
        }
        (ev, units, qs)
    }

    #[test]
    fn streamed_runs_are_the_session_run_however_stepped() {
        for preset in ["predicate-lbe", "impact", "bmc"] {
            let mut whole = crate::worker::run_host::tests::host(counter_unsafe(), preset);
            let (events, units, queries) = run_all(&mut whole, Granularity::End);
            let mut native = {
                let parsed = parse_program("t.c", counter_unsafe()).unwrap();
                let smt = BridgeSmt::new(NativeZ3::new().unwrap());
                let config = RunConfig::preset(preset).resolve().unwrap();
                Session::new(Rc::new(parsed.cfa), config, Box::new(smt))
            };
            native.run();
            assert_eq!(events, native.events(), "{preset}");
            let last = units.last().unwrap();
            assert_eq!(last.events as usize, events.len());
            assert_eq!(last.stats, native.stats(), "{preset}");
            // Every round trip is in the log, once.
            assert_eq!(queries.len() as u64, last.stats.solver_queries, "{preset}");
            assert!(queries.iter().enumerate().all(|(i, q)| q.index == i as u64));
            assert!(queries
                .iter()
                .any(|q| q.purpose == QueryPurpose::Feasibility
                    || q.purpose == QueryPurpose::BoundCheck));
            let mut stepped = crate::worker::run_host::tests::host(counter_unsafe(), preset);
            let (events2, units2, queries2) = run_all(&mut stepped, Granularity::Event);
            assert_eq!(events2, events, "{preset}: event by event");
            assert_eq!(units2, units, "{preset}");
            assert_eq!(queries2, queries, "{preset}");
            assert!(matches!(
                whole.progress().verdict,
                Some(cpa_engine::verdict::Verdict::False { .. })
            ));
        }
    }

    #[test]
    fn until_stops_at_a_step_end_and_quiet_replays_post_nothing() {
        let mut a = host(counter_unsafe(), "predicate-lbe");
        let (events, units, _) = run_all(&mut a, Granularity::End);
        let k = units[units.len() / 2].events;
        let mut b = host(counter_unsafe(), "predicate-lbe");
        let p = b.advance(Granularity::End, Some(k), true, &mut |_| panic!("quiet"));
        assert_eq!(p.events, k);
        assert!(p.verdict.is_none());
        // Continuing streams exactly the rest.
        let mut rest = Vec::new();
        while !b.session().is_finished() {
            b.advance(Granularity::Refinement, None, false, &mut |batch| {
                assert_eq!(batch.from as usize, k as usize + rest.len());
                rest.extend(batch.events)
            });
        }
        assert_eq!(rest, events[k as usize..]);
        assert!(b.query_text(0).is_some());
    }

    #[test]
    fn bad_programs_and_configurations_are_messages() {
        let z3 = || NativeZ3::new().unwrap();
        let err = |src: &str, c: RunConfig| {
            RunHost::new("t.c", src, &c, z3(), None)
                .err()
                .expect("an error")
        };
        let e = err("int main(void) { int x = ; }", RunConfig::preset("bmc"));
        assert!(e.starts_with("t.c:1:"), "{e}");
        let e = err(counter_unsafe(), RunConfig::preset("nope"));
        assert!(e.contains("unknown preset"), "{e}");
        let bad = RunConfig {
            preset: "predicate-lbe".into(),
            set: vec![("refinement".into(), "impact".into())],
        };
        assert!(err(counter_unsafe(), bad).contains("representation=smt"));
        let e = err(
            "int main(void) { float f = 1; return f; }",
            RunConfig::preset("bmc"),
        );
        assert!(e.contains("error"), "{e}");
    }
}
