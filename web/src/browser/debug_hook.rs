//! `window.cpaDebug`: a console and test hook into the engine worker.
//! - `await cpaDebug.z3Query("(declare-const x Int)(assert (> x 2))(check-sat)")` → `"sat"`;
//! - `await cpaDebug.interpolate(script, "farkas", { log: true })` → `{status: "unsat",
//!   interpolants: [...], log: [{query, reply}, ...]}` (or `status: "sat"` with `model`,
//!   `"unknown"` with `reason`); rejects with the error message;
//! - `await cpaDebug.solverBench(200)` → `{rounds, round_trips, check_sats, sat, unsat, ms}`;
//! - `cpaDebug.events()` → the current run's events (the JSON of `cpa verify --events`);
//!   `cpaDebug.events("right")` → those of compare mode's right side (`[]` without one);
//! - `cpaDebug.run()` → `{position, total, finished, phase, states, file, preset, stale}` of
//!   the current run (`stale`: the text shown changed and its CFA is being built);
//! - `cpaDebug.crashWorker()` → the engine worker panics in its next step (the page must
//!   recover).

use crate::engine::driver::Driver;
use crate::protocol::{Ask, SmtInterpolate, SolverBench, Z3Query};
use crate::state::State;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Sends `request` through the page's driver; the promise resolves with what `ok` makes of
/// the answer, or rejects with the error message.
fn ask<A: Ask + Clone + 'static>(
    driver: &Driver,
    request: A,
    ok: fn(A::Answer) -> Result<JsValue, String>,
) -> js_sys::Promise {
    let driver = driver.clone();
    js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
        driver.ask(request.clone(), move |answer| {
            let _ = match answer.and_then(ok) {
                Ok(value) => resolve.call1(&JsValue::NULL, &value),
                Err(e) => reject.call1(&JsValue::NULL, &e.into()),
            };
        });
    })
}

/// `value` (a JSON object), plus `extra` fields, as a plain JavaScript object.
fn as_object(
    value: impl serde::Serialize,
    extra: Option<(&str, serde_json::Value)>,
) -> Result<JsValue, String> {
    let mut value = serde_json::to_value(value).map_err(|e| e.to_string())?;
    if let (Some(map), Some((key, v))) = (value.as_object_mut(), extra) {
        map.insert(key.to_string(), v);
    }
    js_sys::JSON::parse(&value.to_string()).map_err(|e| format!("{e:?}"))
}

fn set(hook: &js_sys::Object, name: &str, f: &JsValue) -> Result<bool, JsValue> {
    js_sys::Reflect::set(hook, &name.into(), f)
}

pub fn install(driver: &Driver, state: &Rc<RefCell<State>>) {
    let d = driver.clone();
    let z3_query = Closure::<dyn FnMut(String) -> js_sys::Promise>::new(move |text: String| {
        ask(&d, Z3Query { text }, |text| Ok(text.into()))
    });
    let d = driver.clone();
    let interpolate = Closure::<dyn FnMut(String, String, JsValue) -> js_sys::Promise>::new(
        move |script: String, strategy: String, options: JsValue| {
            let log = js_sys::Reflect::get(&options, &"log".into())
                .map(|v| v.is_truthy())
                .unwrap_or(false);
            let request = SmtInterpolate {
                script,
                strategy,
                log,
            };
            ask(&d, request, |(answer, log)| match log {
                Some(log) => as_object(
                    answer,
                    Some(("log", serde_json::to_value(log).map_err(|e| e.to_string())?)),
                ),
                None => as_object(answer, None),
            })
        },
    );
    let d = driver.clone();
    let solver_bench = Closure::<dyn FnMut(f64) -> js_sys::Promise>::new(move |rounds: f64| {
        // A JavaScript number is not a u32: reject what would wrap around.
        if !(rounds.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&rounds)) {
            return js_sys::Promise::reject(&format!("bad round count {rounds}").into());
        }
        let rounds = rounds as u32;
        ask(&d, SolverBench { rounds }, |result| as_object(result, None))
    });
    let st = state.clone();
    let events = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |side: JsValue| {
        let st = st.borrow();
        let pg = match side.as_string().as_deref() {
            Some("right") => st.compare.as_ref().map(|c| &c.pg),
            _ => Some(&st.pg),
        };
        let list = pg
            .and_then(|pg| pg.run.as_ref())
            .map(|r| r.events.as_slice())
            .unwrap_or_default();
        match serde_json::to_string(list) {
            Ok(text) => js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL),
            Err(_) => JsValue::NULL,
        }
    });
    let st = state.clone();
    let run = Closure::<dyn FnMut() -> JsValue>::new(move || {
        let st = st.borrow();
        let Some(r) = st.pg.run.as_ref() else {
            return JsValue::NULL;
        };
        let value = serde_json::json!({
            "position": r.position,
            "total": r.events.len(),
            "finished": r.finished(),
            "phase": format!("{:?}", r.phase),
            "states": r.cursor.frame.view.states.len(),
            "file": r.file,
            "preset": r.config.preset,
            "stale": st.pg.building,
        });
        js_sys::JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
    });
    let d = driver.clone();
    let crash = Closure::<dyn FnMut()>::new(move || d.crash_worker());
    let hook = js_sys::Object::new();
    let installed = set(&hook, "z3Query", z3_query.as_ref())
        .and_then(|_| set(&hook, "interpolate", interpolate.as_ref()))
        .and_then(|_| set(&hook, "solverBench", solver_bench.as_ref()))
        .and_then(|_| set(&hook, "events", events.as_ref()))
        .and_then(|_| set(&hook, "run", run.as_ref()))
        .and_then(|_| set(&hook, "crashWorker", crash.as_ref()))
        .and_then(|_| js_sys::Reflect::set(&js_sys::global(), &"cpaDebug".into(), &hook));
    if installed.is_err() {
        web_sys::console::warn_1(&"cannot install window.cpaDebug".into());
    }
    // The hooks live as long as the page.
    z3_query.forget();
    interpolate.forget();
    solver_bench.forget();
    events.forget();
    run.forget();
    crash.forget();
}
