//! `window.cpaDebug`: a console and test hook into the engine worker.
//! - `await cpaDebug.z3Query("(declare-const x Int)(assert (> x 2))(check-sat)")` → `"sat"`;
//! - `await cpaDebug.interpolate(script, "farkas", { log: true })` → `{status: "unsat",
//!   interpolants: [...], log: [{query, reply}, ...]}` (or `status: "sat"` with `model`,
//!   `"unknown"` with `reason`); rejects with the error message;
//! - `await cpaDebug.solverBench(200)` → `{rounds, round_trips, check_sats, sat, unsat, ms}`;
//! - `cpaDebug.events()` → the current run's events (the JSON of `cpa verify --events`);
//! - `cpaDebug.run()` → `{position, total, finished, phase, states, file, preset, stale}` of
//!   the current run (`stale`: the text shown changed and its CFA is being built);
//! - `cpaDebug.crashWorker()` → the engine worker panics in its next step (the page must
//!   recover).

use crate::engine::client::{EngineClient, PageReply};
use crate::protocol::{Reply, Request};
use crate::state::Playground;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Sends `request`; the promise resolves with what `ok` makes of the reply, or rejects with
/// the error message.
fn ask(
    engine: &EngineClient,
    request: Request,
    ok: fn(PageReply) -> Result<JsValue, String>,
) -> js_sys::Promise {
    let engine = engine.clone();
    js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
        engine.request(request.clone(), move |reply| {
            let _ = match reply.and_then(|r| match r {
                Reply::Error { message } => Err(message),
                r => ok(r),
            }) {
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

pub fn install(engine: &EngineClient, playground: &Rc<RefCell<Playground>>) {
    let e = engine.clone();
    let z3_query = Closure::<dyn FnMut(String) -> js_sys::Promise>::new(move |text: String| {
        ask(&e, Request::Z3Query { text }, |r| match r {
            Reply::Z3Reply { text } => Ok(text.into()),
            _ => Err("unexpected reply".into()),
        })
    });
    let e = engine.clone();
    let interpolate = Closure::<dyn FnMut(String, String, JsValue) -> js_sys::Promise>::new(
        move |script: String, strategy: String, options: JsValue| {
            let log = js_sys::Reflect::get(&options, &"log".into())
                .map(|v| v.is_truthy())
                .unwrap_or(false);
            let request = Request::SmtInterpolate {
                script,
                strategy,
                log,
            };
            ask(&e, request, |r| match r {
                Reply::SmtInterpolate {
                    answer,
                    log: Some(log),
                } => as_object(
                    answer,
                    Some(("log", serde_json::to_value(log).map_err(|e| e.to_string())?)),
                ),
                Reply::SmtInterpolate { answer, .. } => as_object(answer, None),
                _ => Err("unexpected reply".into()),
            })
        },
    );
    let e = engine.clone();
    let solver_bench = Closure::<dyn FnMut(f64) -> js_sys::Promise>::new(move |rounds: f64| {
        // A JavaScript number is not a u32: reject what would wrap around.
        if !(rounds.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&rounds)) {
            return js_sys::Promise::reject(&format!("bad round count {rounds}").into());
        }
        let rounds = rounds as u32;
        ask(&e, Request::SolverBench { rounds }, |r| match r {
            Reply::SolverBench { result } => as_object(result, None),
            _ => Err("unexpected reply".into()),
        })
    });
    let pg = playground.clone();
    let events = Closure::<dyn FnMut() -> JsValue>::new(move || {
        let pg = pg.borrow();
        let list = pg
            .run
            .as_ref()
            .map(|r| r.events.as_slice())
            .unwrap_or_default();
        match serde_json::to_string(list) {
            Ok(text) => js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL),
            Err(_) => JsValue::NULL,
        }
    });
    let pg = playground.clone();
    let run = Closure::<dyn FnMut() -> JsValue>::new(move || {
        let pg = pg.borrow();
        let Some(r) = pg.run.as_ref() else {
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
            "stale": pg.building,
        });
        js_sys::JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
    });
    let e = engine.clone();
    let crash = Closure::<dyn FnMut()>::new(move || {
        e.request(Request::DebugPanic, |_| {});
    });
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
