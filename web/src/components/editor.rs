//! The CodeMirror editor. CodeMirror owns the text while the user types; the parent pushes a
//! new text only when it bumps `version` (e.g. an example was picked).

use crate::browser::js::{self, EditorDiagnostic};
use crate::protocol::Diagnostic;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: AttrValue,
    /// Bumped whenever `text` must replace what the editor holds.
    pub version: u64,
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// Lines to mark, 1-based inclusive.
    pub highlight: Option<(u32, u32)>,
    /// Lines the ARG has reached (coverage marks).
    #[prop_or_default]
    pub covered: Rc<Vec<u32>>,
    /// The current event's lines.
    #[prop_or_default]
    pub current: Rc<Vec<u32>>,
    pub on_change: Callback<String>,
    /// Shown, not edited (an embedded playground).
    #[prop_or_default]
    pub read_only: bool,
}

pub struct Editor {
    node: NodeRef,
    handle: Option<JsValue>,
    // Shared with the JS change listener so a new callback prop takes effect without
    // recreating the editor.
    on_change: Rc<RefCell<Callback<String>>>,
    _listener: Option<Closure<dyn FnMut(String)>>,
}

impl Component for Editor {
    type Message = ();
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        Editor {
            node: NodeRef::default(),
            handle: None,
            on_change: Rc::new(RefCell::new(ctx.props().on_change.clone())),
            _listener: None,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let new = ctx.props();
        *self.on_change.borrow_mut() = new.on_change.clone();
        let Some(h) = &self.handle else {
            return false;
        };
        if new.version != old.version {
            js::set_text(h, &new.text);
        }
        if new.diagnostics != old.diagnostics || new.version != old.version {
            push_diagnostics(h, &new.diagnostics);
        }
        if new.highlight != old.highlight || new.version != old.version {
            let (a, b) = new.highlight.unwrap_or((0, 0));
            js::highlight_lines(h, a, b);
        }
        if new.covered != old.covered || new.current != old.current || new.version != old.version {
            js::set_line_marks(h, &new.covered, &new.current);
        }
        false
    }

    fn view(&self, _ctx: &Context<Self>) -> Html {
        html! { <div class="editor" data-testid="editor" ref={self.node.clone()}></div> }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if !first_render {
            return;
        }
        let Some(el) = self.node.cast::<web_sys::Element>() else {
            return;
        };
        let on_change = self.on_change.clone();
        let listener = Closure::<dyn FnMut(String)>::new(move |text: String| {
            let cb = on_change.borrow().clone();
            cb.emit(text);
        });
        let props = ctx.props();
        let handle = js::create_editor(&el, &props.text, listener.as_ref(), props.read_only);
        push_diagnostics(&handle, &props.diagnostics);
        js::set_line_marks(&handle, &props.covered, &props.current);
        self.handle = Some(handle);
        self._listener = Some(listener);
    }
}

fn push_diagnostics(handle: &JsValue, diagnostics: &[Diagnostic]) {
    let list: Vec<EditorDiagnostic> = diagnostics.iter().map(EditorDiagnostic::from).collect();
    match serde_wasm_bindgen::to_value(&list) {
        Ok(list) => js::set_diagnostics(handle, &list),
        Err(e) => web_sys::console::error_1(&format!("diagnostics: {e}").into()),
    }
}
