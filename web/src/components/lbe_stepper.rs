//! Controls for replaying the LBE summarization rule by rule.

use crate::state::program::LbeStep;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub position: usize,
    pub total: usize,
    pub label: AttrValue,
    pub on_command: Callback<LbeStep>,
}

#[function_component(LbeStepper)]
pub fn lbe_stepper(props: &Props) -> Html {
    let button = |cmd: LbeStep, testid: &'static str, title: &'static str, disabled: bool| {
        let cb = props.on_command.clone();
        html! {
            <button type="button" class="icon" data-testid={testid} {title} aria-label={title} {disabled}
                onclick={move |_| cb.emit(cmd)}>{ icon(cmd) }</button>
        }
    };
    let (p, t) = (props.position, props.total);
    html! {
        <div class="stepper" role="group" aria-label="LBE replay">
            { button(LbeStep::Reset, "lbe-step-reset", "Back to the CFA", p == 0) }
            { button(LbeStep::Back, "lbe-step-back", "Undo one rule application", p == 0) }
            { button(LbeStep::Forward, "lbe-step-forward", "Apply the next rule", p >= t) }
            { button(LbeStep::End, "lbe-step-end", "Jump to the summary", p >= t) }
            <span class="step-label" data-testid="lbe-step-label">{ props.label.clone() }</span>
        </div>
    }
}

/// Inline SVG, because the media-control characters (⏮ ⏭) are missing from common fonts.
fn icon(cmd: LbeStep) -> Html {
    let path = match cmd {
        LbeStep::Reset => "M3 2h2v12H3zM14 2v12L6 8z",
        LbeStep::Back => "M12 2v12L4 8z",
        LbeStep::Forward => "M4 2v12l8-6z",
        LbeStep::End => "M2 2v12l8-6zM11 2h2v12h-2z",
    };
    html! {
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d={path} fill="currentColor" /></svg>
    }
}

#[cfg(test)]
mod tests {
    use super::LbeStep::*;

    #[test]
    fn commands_stay_in_range() {
        assert_eq!(Forward.apply(38, 38), 38);
        assert_eq!(Forward.apply(3, 38), 4);
        assert_eq!(Back.apply(0, 38), 0);
        assert_eq!(Back.apply(4, 38), 3);
        assert_eq!(Reset.apply(17, 38), 0);
        assert_eq!(End.apply(0, 38), 38);
        assert_eq!(End.apply(0, 0), 0);
    }
}
