//! The effects of the state's [`Command`]s: the worker (through the [`Driver`], the one route
//! to it), the timers, the address bar, downloads and the theme; and the browser's own inputs
//! (keys, back and forward) turned into [`Msg`]s.

use crate::browser::url;
use crate::engine::driver::Driver;
use crate::state::keys::shortcut;
use crate::state::url::URL_THROTTLE_MS;
use crate::state::{Command, Msg};
use gloo_timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use yew::Callback;

/// Pause after the last keystroke before the CFA is rebuilt.
const DEBOUNCE_MS: u32 = 300;

pub struct Effects {
    pub driver: Driver,
    dispatch: Callback<Msg>,
    debounce: Option<Timeout>,
    url_timer: Option<Timeout>,
    _popstate: Option<Closure<dyn FnMut(web_sys::Event)>>,
    _keys: Option<Closure<dyn FnMut(web_sys::KeyboardEvent)>>,
}

impl Effects {
    pub fn new(driver: Driver, dispatch: Callback<Msg>) -> Effects {
        let mut effects = Effects {
            driver,
            dispatch,
            debounce: None,
            url_timer: None,
            _popstate: None,
            _keys: None,
        };
        effects.install_popstate();
        effects.install_keys();
        effects
    }

    pub fn run(&mut self, commands: Vec<Command>) {
        for c in commands {
            match c {
                Command::Run(c) => self.driver.run(c),
                Command::BuildCfa {
                    generation,
                    file,
                    source,
                } => {
                    self.debounce = None;
                    self.driver.build_cfa(generation, file, source.to_string());
                }
                Command::Debounce => {
                    let d = self.dispatch.clone();
                    self.debounce = Some(Timeout::new(DEBOUNCE_MS, move || d.emit(Msg::Rebuild)));
                }
                Command::SetUrl { fragment, push } => url::set_fragment(&fragment, push),
                Command::ThrottleUrl => {
                    let d = self.dispatch.clone();
                    self.url_timer =
                        Some(Timeout::new(URL_THROTTLE_MS, move || d.emit(Msg::FlushUrl)));
                }
                Command::Download { name, mime, text } => url::download(&name, mime, &text),
                Command::DownloadSvg { name, mime, dot } => {
                    let promise = crate::browser::js::render_dot(&dot);
                    wasm_bindgen_futures::spawn_local(async move {
                        match wasm_bindgen_futures::JsFuture::from(promise).await {
                            Ok(svg) => {
                                url::download(&name, mime, &svg.as_string().unwrap_or_default())
                            }
                            Err(e) => web_sys::console::error_1(&e),
                        }
                    });
                }
                Command::DownloadWitness { name, mime } => {
                    self.driver.witness(now(), move |r| match r {
                        Ok(yaml) => url::download(&name, mime, &yaml),
                        Err(e) => web_sys::console::error_1(&e.into()),
                    });
                }
                Command::ToggleTheme => url::toggle_theme(),
                Command::LoadQuery(i) => self.driver.query_text(i),
                Command::Race(c) => self.driver.race(c),
                Command::RunRight(c) => self.driver.run_right(c),
                Command::JudgePredicate { generation, ask } => {
                    self.driver.judge_predicate(generation, ask)
                }
                Command::CheckInvariant {
                    generation,
                    file,
                    source,
                    line,
                    invariant,
                } => self.driver.check_invariant(
                    generation,
                    crate::protocol::CheckInvariant {
                        file,
                        source,
                        line,
                        invariant,
                    },
                ),
            }
        }
    }

    fn install_popstate(&mut self) {
        let d = self.dispatch.clone();
        let handler = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            d.emit(Msg::OpenFragment(url::fragment()));
        });
        if let Some(w) = web_sys::window() {
            let _ =
                w.add_event_listener_with_callback("popstate", handler.as_ref().unchecked_ref());
        }
        self._popstate = Some(handler);
    }

    fn install_keys(&mut self) {
        let d = self.dispatch.clone();
        let handler =
            Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                // Never while typing: the editor, inputs, selects.
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        el.closest(".cm-editor, input, textarea, select")
                            .ok()
                            .flatten()
                            .is_some()
                    });
                if typing || e.alt_key() {
                    return;
                }
                let ctrl = e.ctrl_key() || e.meta_key();
                if let Some(msg) = shortcut(&e.key(), ctrl, e.shift_key()) {
                    e.prevent_default();
                    d.emit(msg);
                }
            });
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
        }
        self._keys = Some(handler);
    }
}

/// The page's clock as RFC 3339 without milliseconds, as the CLI writes a witness's creation
/// time.
fn now() -> String {
    let now = js_sys::Date::new_0()
        .to_iso_string()
        .as_string()
        .unwrap_or_default();
    match now.split_once('.') {
        Some((s, _)) => format!("{s}Z"),
        None => now,
    }
}
