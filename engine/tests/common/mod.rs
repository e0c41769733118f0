//! Shared by the engine's integration tests that run sessions with the real native z3.

use cpa_engine::config::Config;
use cpa_engine::parse_program;
use cpa_engine::session::Session;
use cpa_engine::smt::BridgeSmt;
use solver_bridge::solver::NativeZ3;
use std::rc::Rc;

/// A session on `src` with `config`, solving with a fresh `z3 -in`.
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn native_session(src: &str, config: Config) -> Session {
    let parsed = parse_program("t.c", src).expect("parses");
    let smt = BridgeSmt::new(NativeZ3::new().expect("the tests need z3"));
    Session::new(Rc::new(parsed.cfa), config, Box::new(smt))
}

/// `f` on every item, on two worker threads (the machine's two cores; each run has its own
/// z3 process), the results in no particular order.
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn on_two_workers<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    while let Some(item) =
                        items.get(next.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
                    {
                        out.push(f(item));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

/// The value of a test program's `// KEY VALUE` comment line (`key` includes the colon).
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn header<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    src.lines()
        .filter_map(|l| l.strip_prefix("// "))
        .find_map(|l| l.strip_prefix(key))
        .map(str::trim)
}

/// Whether the data-driven tests run `preset` on the program `src`: every preset, unless
/// its `// only: PRESET ...` header names the few that decide it (the others would run to
/// their limits).
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn runs_preset(src: &str, preset: &str) -> bool {
    header(src, "only:").is_none_or(|only| only.split_whitespace().any(|p| p == preset))
}
