//! The CPA Playground in the browser: a Yew page (`bin/cpa-web.rs`) and the engine worker
//! (`bin/cpa-worker.rs`), which talk through [`protocol`]. Everything that does not need a
//! browser is tested natively with `cargo test -p cpa-web`.

pub mod components;
pub mod debug_hook;
pub mod dot;
pub mod driver;
pub mod engine_client;
pub mod examples;
pub mod explain;
pub mod export;
pub mod formula;
pub mod knobs;
pub mod model;
pub mod page_url;
pub mod playground;
pub mod protocol;
pub mod replay;
pub mod run_host;
pub mod share;
pub mod vendor;
pub mod worker;
