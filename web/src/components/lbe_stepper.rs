//! Controls for replaying the LBE summarization rule by rule.

use yew::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepCommand {
    Reset,
    Back,
    Forward,
    End,
}

impl StepCommand {
    /// The new position in `0..=total`.
    pub fn apply(self, position: usize, total: usize) -> usize {
        match self {
            StepCommand::Reset => 0,
            StepCommand::Back => position.saturating_sub(1),
            StepCommand::Forward => (position + 1).min(total),
            StepCommand::End => total,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub position: usize,
    pub total: usize,
    pub label: AttrValue,
    pub on_command: Callback<StepCommand>,
}

#[function_component(LbeStepper)]
pub fn lbe_stepper(props: &Props) -> Html {
    let button = |cmd: StepCommand,
                  testid: &'static str,
                  text: &'static str,
                  title: &'static str,
                  disabled: bool| {
        let cb = props.on_command.clone();
        html! {
            <button type="button" data-testid={testid} {title} {disabled} onclick={move |_| cb.emit(cmd)}>{ text }</button>
        }
    };
    let (p, t) = (props.position, props.total);
    html! {
        <div class="stepper" role="group" aria-label="LBE replay">
            { button(StepCommand::Reset, "lbe-step-reset", "⏮", "Back to the CFA", p == 0) }
            { button(StepCommand::Back, "lbe-step-back", "◀", "Undo one rule application", p == 0) }
            { button(StepCommand::Forward, "lbe-step-forward", "▶", "Apply the next rule", p >= t) }
            { button(StepCommand::End, "lbe-step-end", "⏭", "Jump to the summary", p >= t) }
            <span class="step-label" data-testid="lbe-step-label">{ props.label.clone() }</span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::StepCommand::*;

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
