//! The engine worker (a wasm-bindgen no-modules build, loaded by `static/worker.js`, which also
//! defines the Z3 glue `cpaZ3Load`/`cpaZ3Eval` in the worker's global scope).

#[cfg(target_arch = "wasm32")]
mod wasm {
    use cpa_web::worker::{
        bench_reply, error_reply, fatal_json, handle, interpolate_reply, invariant_reply,
        predicate_reply, ready_json, z3_reply, Runs, Work,
    };
    use solver_bridge::solver::{browser_eval_raw, browser_solver, FnClock};
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen_futures::JsFuture;

    #[wasm_bindgen]
    extern "C" {
        /// Loads Z3 once; resolves when `cpaZ3Eval` can be called.
        #[wasm_bindgen(js_name = cpaZ3Load)]
        fn cpa_z3_load() -> js_sys::Promise;
    }

    fn post(text: &str) {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        // Posting a string to our own page cannot fail (nothing to clone or transfer).
        let _ = scope.post_message(&JsValue::from_str(text));
    }

    fn js_error_text(e: &JsValue) -> String {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| format!("{e:?}"))
    }

    /// Loads Z3 once (a no-op after the first time).
    async fn load_z3() -> Result<(), String> {
        JsFuture::from(cpa_z3_load())
            .await
            .map(|_| ())
            .map_err(|e| format!("cannot load Z3: {}", js_error_text(&e)))
    }

    /// `performance.now()` in milliseconds (the worker's clock; the engine reads none).
    fn now_ms() -> f64 {
        js_sys::global()
            .dyn_into::<web_sys::WorkerGlobalScope>()
            .ok()
            .and_then(|scope| scope.performance())
            .map(|p| p.now())
            .unwrap_or_else(js_sys::Date::now)
    }

    fn now_micros() -> u64 {
        (now_ms() * 1000.0) as u64
    }

    thread_local! {
        /// The verification run, held across messages.
        static RUNS: RefCell<Runs> = RefCell::new(Runs::default());
        /// Set by `debug-panic`: the next step panics (a message cannot interrupt a step).
        static PANIC_NEXT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    pub fn start() {
        // A panic leaves the wasm instance unusable: tell the page, which restarts the worker.
        std::panic::set_hook(Box::new(|info| {
            post(&fatal_json(format!("engine panic: {info}")))
        }));
        post(&ready_json());
    }

    #[wasm_bindgen]
    pub async fn handle_message(data: String) {
        match handle(&data) {
            Work::Post(text) => post(&text),
            Work::Z3 { id, text } => {
                let result = match JsFuture::from(cpa_z3_load()).await {
                    // Raw, on the long-lived context; bridge handles restore their own state.
                    Ok(_) => browser_eval_raw(&text).map_err(|e| e.to_string()),
                    Err(e) => Err(format!("cannot load Z3: {}", js_error_text(&e))),
                };
                post(&z3_reply(id, result));
            }
            Work::Interpolate { id, job } => post(&match load_z3().await {
                // A fresh handle on the worker's one Z3 context: whatever earlier requests
                // left there is reset first.
                Ok(()) => interpolate_reply(id, &job, browser_solver()),
                Err(message) => error_reply(id, message),
            }),
            Work::Bench { id, rounds } => post(&match load_z3().await {
                Ok(()) => bench_reply(id, rounds, &mut browser_solver(), &mut FnClock(now_micros)),
                Err(message) => error_reply(id, message),
            }),
            Work::Start {
                id,
                file,
                source,
                config,
            } => post(&match load_z3().await {
                Ok(()) => RUNS.with(|r| {
                    r.borrow_mut().start(
                        id,
                        &file,
                        &source,
                        &config,
                        browser_solver(),
                        Some(Box::new(now_ms)),
                    )
                }),
                Err(message) => error_reply(id, message),
            }),
            Work::Advance {
                id,
                granularity,
                until,
                quiet,
            } => {
                if PANIC_NEXT.with(|p| p.replace(false)) {
                    panic!("a test asked the engine to panic in this step");
                }
                let reply = RUNS.with(|r| {
                    r.borrow_mut()
                        .advance(id, granularity, until, quiet, &mut |m| post(m))
                });
                post(&reply);
            }
            Work::QueryText { id, index } => post(&RUNS.with(|r| r.borrow().query_text(id, index))),
            Work::Witness { id, creation_time } => {
                post(&RUNS.with(|r| r.borrow().witness(id, &creation_time)))
            }
            Work::CheckInvariant { id, ask } => post(&match load_z3().await {
                Ok(()) => invariant_reply(id, &ask, browser_solver()),
                Err(message) => error_reply(id, message),
            }),
            Work::JudgePredicate { id, ask } => post(&match load_z3().await {
                Ok(()) => predicate_reply(id, &ask, browser_solver()),
                Err(message) => error_reply(id, message),
            }),
            Work::Panic => PANIC_NEXT.with(|p| p.set(true)),
        }
    }
}

fn main() {
    // wasm-bindgen runs a binary's `main` when the module is instantiated.
    #[cfg(target_arch = "wasm32")]
    wasm::start();
}
