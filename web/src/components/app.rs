//! The playground page: the one [`State`], changed only by [`State::update`], whose commands
//! the [`Effects`] carry out; and the layout of the views, each drawn from its slice of the
//! state (`topbar`, `source_column`, `stage`, `details`).

use crate::browser::effects::Effects;
use crate::browser::url;
use crate::components::help_overlay::HelpOverlay;
use crate::components::knobs_panel::KnobsPanel;
use crate::components::share_dialog::ShareDialog;
use crate::components::{details, source_column, stage, topbar};
use crate::engine::client::EngineClient;
use crate::engine::driver::Driver;
use crate::present::examples::{self, EXAMPLES};
use crate::present::knobs::{knobs, semantics_line};
use crate::state::link::Link;
use crate::state::msg::EngineStatus;
use crate::state::{Msg, Overlay, State, View};
use cpa_engine::verdict::Verdict;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The example the page opens with.
const DEFAULT_EXAMPLE: &str = "unifying-fig2";

pub struct App {
    /// Shared with the console hook (`cpaDebug.events()`), which reads it between updates.
    state: Rc<RefCell<State>>,
    effects: Effects,
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let dispatch = ctx.link().callback(|m: Msg| m);
        let engine = EngineClient::new(&url::worker_script(), ctx.link().callback(Msg::Engine));
        let driver = Driver::new(engine, dispatch.clone());
        url::restore_theme();
        let example = examples::by_key(DEFAULT_EXAMPLE).unwrap_or(&EXAMPLES[0]);
        let view = View::from_params(url::param("embed").as_deref(), url::has_param("present"));
        let (mut state, mut cmds) = State::new(Link::decode(&url::fragment()), view, example);
        if let Some(v) = url::param("compare") {
            cmds.extend(state.compare_param(&v));
        }
        let state = Rc::new(RefCell::new(state));
        crate::browser::debug_hook::install(&driver, &state);
        let mut effects = Effects::new(driver, dispatch);
        effects.run(cmds);
        App { state, effects }
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        if let Msg::Engine(EngineStatus::Z3 { done: true, .. }) = &msg {
            // The whole application into the service worker's cache, now that the biggest
            // file has arrived (from the HTTP cache: offline use, and no download next time).
            url::precache();
        }
        let (cmds, changed) = self.state.borrow_mut().update(msg);
        self.effects.run(cmds);
        changed
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let st = self.state.borrow();
        let send = ctx.link().callback(|m: Msg| m);
        let view = &st.view;
        let pg = &st.pg;
        // Deflated only where shown (the address bar has its own).
        let fragment: Option<AttrValue> =
            (view.embed || view.overlay == Overlay::Share).then(|| st.link().encode().into());
        let open_full = fragment
            .as_ref()
            .filter(|_| view.embed)
            .map(|f| AttrValue::from(url::playground_link(f)));
        let has_witness = pg
            .run
            .as_ref()
            .is_some_and(|r| matches!(r.verdict, Some(Verdict::True | Verdict::False { .. })));
        let command: AttrValue = pg.config.command_line(&st.program.file).into();
        let classes = classes!(
            "app",
            view.presentation.then_some("presentation"),
            view.embed.then_some("embed"),
            view.embed_hidden.clone(),
            view.phone.describe().2
        );
        html! {
            <div class={classes}>
                { topbar::view(&st, open_full, &send) }
                if view.overlay == Overlay::Knobs {
                    <KnobsPanel knobs={knobs(&pg.config)} error={pg.config_error.clone().map(AttrValue::from)}
                        command={command.clone()}
                        on_set={send.reform(|(k, v)| Msg::SetKnob(k, v))}
                        on_reset={send.reform(|_| Msg::ResetKnobs)}
                        on_close={send.reform(|_| Msg::Overlay(Overlay::None))} />
                }
                if let Some(e) = &st.url.link_error {
                    <p class="link-error" data-testid="link-error" role="alert">{ e.to_string() }</p>
                }
                if let Some(e) = st.program.example {
                    <p class="about" data-testid="example-about">{ e.about }</p>
                }
                <p class="semantics" data-testid="semantics">{ semantics_line(&pg.config, st.program.graphs.as_ref().is_some_and(|g| g.cfa.memory.is_some())) }</p>
                { topbar::phone_tabs(view.phone, &send) }
                <main class="workspace">
                    { source_column::view(&st, &send) }
                    <div class="column stage-column">
                        { stage::view(&st, &send) }
                        { details::view(&st, command, &send) }
                    </div>
                </main>
                if let (Overlay::Share, Some(fragment)) = (view.overlay, fragment) {
                    <ShareDialog fragment={fragment} on_close={send.reform(|_| Msg::Overlay(Overlay::None))}
                        on_export={send.reform(Msg::Export)} has_witness={has_witness} />
                }
                if let Overlay::Help(focus) = view.overlay {
                    <HelpOverlay {focus} on_close={send.reform(|_| Msg::Overlay(Overlay::None))} />
                }
            </div>
        }
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        // A `<select>` the user has changed no longer follows its options' `selected`
        // attributes: set its value when the state changed it (a link, back and forward).
        let st = self.state.borrow();
        url::set_select("example-select", st.program.example.map_or("", |e| e.key));
        url::set_select("config-select", &st.pg.config.preset);
    }
}
