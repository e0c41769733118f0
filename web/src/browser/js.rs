//! The JavaScript side bundled by esbuild (`web/js/index.js`, global `CpaPage`):
//! CodeMirror 6, Graphviz (viz.js) and the ARG view (`web/js/arg.js`, d3-hierarchy and d3-zoom).

use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Creates a C editor in `parent`; `on_change(text)` runs after each user edit (not after
    /// `set_text`); `read_only` for an embedded playground. Returns the editor handle the
    /// other calls take.
    #[wasm_bindgen(js_namespace = CpaPage, js_name = createEditor)]
    pub fn create_editor(
        parent: &web_sys::Element,
        text: &str,
        on_change: &JsValue,
        read_only: bool,
    ) -> JsValue;

    #[wasm_bindgen(js_namespace = CpaPage, js_name = setText)]
    pub fn set_text(editor: &JsValue, text: &str);

    /// `diagnostics`: an array of [`EditorDiagnostic`].
    #[wasm_bindgen(js_namespace = CpaPage, js_name = setDiagnostics)]
    pub fn set_diagnostics(editor: &JsValue, diagnostics: &JsValue);

    /// Marks lines `first..=last` (1-based) and scrolls them into view; `0, 0` clears.
    #[wasm_bindgen(js_namespace = CpaPage, js_name = highlightLines)]
    pub fn highlight_lines(editor: &JsValue, first: u32, last: u32);

    /// Marks the lines the ARG has reached and the current event's lines (1-based arrays).
    #[wasm_bindgen(js_namespace = CpaPage, js_name = setLineMarks)]
    pub fn set_line_marks(editor: &JsValue, covered: &[u32], current: &[u32]);

    /// Creates the ARG view in `parent`; `on_click(state_id)` runs when a state is clicked.
    #[wasm_bindgen(js_namespace = CpaPage, js_name = createArgView)]
    pub fn create_arg_view(parent: &web_sys::Element, on_click: &JsValue) -> JsValue;

    /// Shows a model (see `components::arg_view::ArgModel`) in an ARG view.
    #[wasm_bindgen(js_namespace = CpaPage, js_name = updateArgView)]
    pub fn update_arg_view(view: &JsValue, model: &JsValue);

    /// `fit`, `zoom-in` or `zoom-out`.
    #[wasm_bindgen(js_namespace = CpaPage, js_name = argViewCommand)]
    pub fn arg_view_command(view: &JsValue, command: &str);

    /// Lays out a DOT graph; resolves to the SVG text, rejects with Graphviz's error.
    #[wasm_bindgen(js_namespace = CpaPage, js_name = renderDot)]
    pub fn render_dot(dot: &str) -> js_sys::Promise;
}

/// A diagnostic as `setDiagnostics` takes it: 1-based lines, 1-based columns in characters,
/// end exclusive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditorDiagnostic {
    pub start_line: u32,
    pub start_col: u32,
    pub end_line: u32,
    pub end_col: u32,
    pub severity: String,
    pub message: String,
}

impl From<&crate::protocol::Diagnostic> for EditorDiagnostic {
    fn from(d: &crate::protocol::Diagnostic) -> Self {
        EditorDiagnostic {
            start_line: d.span.start_line,
            start_col: d.span.start_col,
            end_line: d.span.end_line,
            end_col: d.span.end_col,
            severity: d.severity.name().to_string(),
            message: d.message.clone(),
        }
    }
}
