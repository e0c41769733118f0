//! The page's URL: the share-link fragment it follows (`history.replaceState`, or
//! `pushState` when the program or the configuration changed, so back and forward walk
//! through them), the page modes of its query (`?embed`, `?present`), and the links the share
//! dialog offers. The only browser glue for URLs; the encoding is `share.rs`.

use wasm_bindgen::{JsCast, JsValue};

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The fragment after `#`, as the browser has it (percent-escapes are left alone: a v1 link
/// has none).
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_string())
        .unwrap_or_default()
}

/// Whether the query has the parameter `name` (`?embed`, `?present`, `?embed=1`).
pub fn has_param(name: &str) -> bool {
    window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .is_some_and(|p| p.has(name))
}

/// The value of the query parameter `name`, if there is one (`?embed=arg,source` → `arg,source`).
pub fn param(name: &str) -> Option<String> {
    window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get(name))
}

/// Shows `fragment` in the address bar: a new history entry if `push`.
pub fn set_fragment(fragment: &str, push: bool) {
    let Some(history) = window().and_then(|w| w.history().ok()) else {
        return;
    };
    let url = format!("#{fragment}");
    let _ = if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    };
}

/// The page's address without query and fragment.
fn base() -> String {
    window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// The links of the share dialog for `fragment`: the playground, the embedded one, and
/// the `<iframe>` snippet.
pub fn share_links(fragment: &str) -> (String, String, String) {
    let base = base();
    let full = format!("{base}#{fragment}");
    let embed = format!("{base}?embed#{fragment}");
    let iframe = format!(
        "<iframe src=\"{embed}\" width=\"960\" height=\"600\" style=\"border:1px solid #ccc\" title=\"CPA Playground\" loading=\"lazy\"></iframe>"
    );
    (full, embed, iframe)
}

/// The playground (not embedded) at `fragment`, for the embed's "open in playground" link.
pub fn playground_link(fragment: &str) -> String {
    format!("{}#{fragment}", base())
}

/// Copies `text` to the clipboard (the share dialog also shows it selected, where the
/// clipboard is not allowed).
pub fn copy(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// The theme remembered from the last visit (`"light"` or `"dark"`).
pub fn stored_theme() -> Option<String> {
    window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item("cpa-theme").ok().flatten())
        .filter(|t| t == "light" || t == "dark")
}

pub fn store_theme(theme: &str) {
    if let Some(s) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item("cpa-theme", theme);
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = document.create_element("a") {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", name);
        if let Some(a) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&a) {
            a.click();
        }
    }
    // Revoked later: the download reads it after this returns.
    gloo_timers::callback::Timeout::new(30_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}

/// Toggles `data-theme` on the root element between light and dark (the first toggle
/// departs from the system's preference).
pub fn toggle_theme() {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let dark_now = match root.get_attribute("data-theme").as_deref() {
        Some("dark") => true,
        Some(_) => false,
        None => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    };
    let theme = if dark_now { "light" } else { "dark" };
    let _ = root.set_attribute("data-theme", theme);
    store_theme(theme);
}

/// Sets the value of the `<select>` with `data-testid` `testid`, if it differs.
pub fn set_select(testid: &str, value: &str) {
    let select = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("select[data-testid=\"{testid}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok());
    if let Some(select) = select {
        if select.value() != value {
            select.set_value(value);
        }
    }
}

/// The theme chosen on an earlier visit, if any (else the system's preference applies).
pub fn restore_theme() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let (Some(root), Some(theme)) = (root, stored_theme()) {
        let _ = root.set_attribute("data-theme", &theme);
    }
}

/// The engine worker's script, as index.html names it (`<meta name="cpa-worker">`: the
/// name carries the file's content hash), or `worker.js` where it does not.
pub fn worker_script() -> String {
    window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(r#"meta[name="cpa-worker"]"#)
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "worker.js".to_string())
}

/// Asks the service worker to cache the whole application (index.html's `cpaPrecache`):
/// called once Z3 has loaded, so the files come from the browser's HTTP cache, not the network
/// a second time. A page without a service worker (an insecure origin) does nothing.
pub fn precache() {
    let Some(w) = window() else { return };
    let Ok(f) = js_sys::Reflect::get(&w, &JsValue::from_str("cpaPrecache")) else {
        return;
    };
    if let Some(f) = f.dyn_ref::<js_sys::Function>() {
        let _ = f.call0(&w);
    }
}
