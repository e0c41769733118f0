//! The CPA Playground in the browser: a Yew page (`bin/cpa-web.rs`) and the engine worker
//! (`bin/cpa-worker.rs`), which talk through [`engine::protocol`]. Everything that does not
//! need a browser is tested natively with `cargo test -p cpa-web`.
//!
//! Layers, bottom first (each imports only those before it): [`present`] (models and texts
//! of what the views show: formulas, DOT, the LBE replay, exports, knobs, the gallery),
//! [`engine`] (the protocol with the worker, the client and the driver), [`worker`] (the
//! worker's side), [`state`] (the page's state and its reducer), [`explain`] (each event in
//! words), [`browser`] (URL, JavaScript and console glue), [`components`] (the views).

pub mod browser;
pub mod components;
pub mod engine;
pub mod explain;
pub mod present;
pub mod protocol;
pub mod state;
pub mod worker;
