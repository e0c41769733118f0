//! The examples gallery: one `<select>` grouped by origin.

use crate::present::examples::{groups, EXAMPLES};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Key of the selected example.
    pub selected: AttrValue,
    pub on_select: Callback<String>,
}

#[function_component(ExampleSelect)]
pub fn example_select(props: &Props) -> Html {
    let onchange = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                on_select.emit(select.value());
            }
        })
    };
    html! {
        <label class="example-select">
            <span class="label">{ "Example" }</span>
            <select data-testid="example-select" {onchange}>
                { for groups().into_iter().map(|g| html! {
                    <optgroup label={g}>
                        { for EXAMPLES.iter().filter(|e| e.group == g).map(|e| html! {
                            <option value={e.key} selected={props.selected == e.key}>{ e.title }</option>
                        }) }
                    </optgroup>
                }) }
            </select>
        </label>
    }
}
