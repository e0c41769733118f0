//! The share dialog: the link to the state shown, the link for an `<iframe>` (read-only
//! playground) and the `<iframe>` snippet, each with a copy button.

use crate::browser::url as page_url;
use crate::state::export::ExportKind;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The fragment (`v1=…`) of the state shown.
    pub fragment: AttrValue,
    pub on_close: Callback<()>,
    pub on_export: Callback<ExportKind>,
    /// The run ended TRUE or FALSE: it has a witness.
    #[prop_or_default]
    pub has_witness: bool,
}

#[function_component(ShareDialog)]
pub fn share_dialog(p: &Props) -> Html {
    let copied = use_state(|| None::<&'static str>);
    let (full, embed, iframe) = page_url::share_links(&p.fragment);
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let row = |name: &'static str, testid: &'static str, text: String, hint: &'static str| {
        let copy = {
            let text = text.clone();
            let copied = copied.clone();
            Callback::from(move |_: MouseEvent| {
                page_url::copy(&text);
                copied.set(Some(name));
            })
        };
        let select = Callback::from(|e: FocusEvent| {
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                i.select();
            }
        });
        let id = format!("share-{testid}");
        html! {
            <div class="share-row">
                <label for={id.clone()}>{ name }<span class="muted">{ format!(" · {hint}") }</span></label>
                <div class="share-field">
                    <input id={id} type="text" readonly=true data-testid={testid} value={text} onfocus={select} />
                    <button type="button" data-testid={format!("{testid}-copy")} onclick={copy}>
                        { if *copied == Some(name) { "copied" } else { "copy" } }
                    </button>
                </div>
            </div>
        }
    };
    let length = full.chars().count();
    html! {
        <div class="overlay" data-testid="share-dialog" onclick={close.clone()} role="dialog" aria-modal="true" aria-label="Share">
            <div class="overlay-body share-body" onclick={stop}>
                <header class="panel-head">
                    <h2>{ "Share this state" }</h2>
                    <button type="button" class="close" aria-label="Close" onclick={close}>{ "×" }</button>
                </header>
                <p>{ "The link holds the program, the analysis with its knobs, the step shown and the selected view, in the link itself: it opens the same run at the same step on any machine, with no server." }</p>
                { row("Link", "share-url", full, "the whole state") }
                <p class="muted share-length" data-testid="share-length">{ format!("{length} characters") }</p>
                { row("Embed link", "share-embed-url", embed, "a read-only playground for an iframe; ?embed=arg,details (or source, graphs) shows only those views") }
                { row("Iframe", "share-iframe", iframe, "paste into a web page or slides") }
                <h3>{ "Export the step shown" }</h3>
                <div class="export-buttons">
                    { for ExportKind::ALL.iter().map(|&k| {
                        let (name, testid, _, _) = k.describe();
                        let cb = p.on_export.clone();
                        let off = k == ExportKind::Witness && !p.has_witness;
                        let title = off.then_some("a witness comes with a TRUE or FALSE: run the analysis to its verdict");
                        html! { <button type="button" data-testid={testid} disabled={off} {title} onclick={Callback::from(move |_: MouseEvent| cb.emit(k))}>{ name }</button> }
                    }) }
                </div>
                <p class="muted">{ "The run's JSON is what " }<code>{ "cpa verify --json --events" }</code>{ " prints for the same program and analysis; the witness (SV-COMP format 2.0: the counterexample of a FALSE, the loop invariants of a TRUE) is what " }<code>{ "cpa verify --witness" }</code>{ " writes, and " }<code>{ "cpa validate-witness" }</code>{ " checks it." }</p>
            </div>
        </div>
    }
}
