//! `window.cpaDebug`: a console and test hook into the engine worker.
//! `await cpaDebug.z3Query("(declare-const x Int)(assert (> x 2))(check-sat)")` → `"sat\n"`.

use crate::engine_client::EngineClient;
use crate::protocol::{Reply, Request};
use wasm_bindgen::prelude::*;

pub fn install(engine: &EngineClient) {
    let engine = engine.clone();
    let z3_query = Closure::<dyn FnMut(String) -> js_sys::Promise>::new(move |text: String| {
        let engine = engine.clone();
        js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
            engine.request(Request::Z3Query { text: text.clone() }, move |reply| {
                let _ = match reply {
                    Ok(Reply::Z3Reply { text }) => resolve.call1(&JsValue::NULL, &text.into()),
                    Ok(Reply::Error { message }) => reject.call1(&JsValue::NULL, &message.into()),
                    Ok(_) => reject.call1(&JsValue::NULL, &"unexpected reply".into()),
                    Err(e) => reject.call1(&JsValue::NULL, &e.into()),
                };
            });
        })
    });
    let hook = js_sys::Object::new();
    let installed = js_sys::Reflect::set(&hook, &"z3Query".into(), z3_query.as_ref())
        .and_then(|_| js_sys::Reflect::set(&js_sys::global(), &"cpaDebug".into(), &hook));
    if installed.is_err() {
        web_sys::console::warn_1(&"cannot install window.cpaDebug".into());
    }
    // The hook lives as long as the page.
    z3_query.forget();
}
