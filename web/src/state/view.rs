//! What the page shows and how: the graph under the source, the bottom tabs, the phone's
//! views, and the selection linked across them.

use serde::{Deserialize, Serialize};

/// The graph shown on the left, under the source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GraphKind {
    #[default]
    Cfa,
    Lbe,
}

/// The bottom tabs under the ARG (keys 1–7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tab {
    #[default]
    Refinements,
    Log,
    Stats,
    Counterexample,
    Node,
    Invariant,
    Race,
    /// Writing a lesson.
    Author,
}

/// On a phone (narrow screens) one view at a time, chosen by tabs; the step bar stays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PhoneView {
    #[default]
    Program,
    Arg,
    Details,
    Graphs,
}

impl PhoneView {
    pub const ALL: [PhoneView; 4] = [
        PhoneView::Program,
        PhoneView::Arg,
        PhoneView::Details,
        PhoneView::Graphs,
    ];

    /// Tab text, `data-testid`, and the CSS class the page gets while it is shown.
    pub fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            PhoneView::Program => ("Program", "phone-tab-program", "phone-program"),
            PhoneView::Arg => ("ARG", "phone-tab-arg", "phone-arg"),
            PhoneView::Details => ("Details", "phone-tab-details", "phone-details"),
            PhoneView::Graphs => ("CFA", "phone-tab-graphs", "phone-graphs"),
        }
    }
}

/// What is selected, linked across the views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// An ARG state.
    State(u32),
    /// A CFA location.
    Location(u32),
    /// A source line.
    Line(u32),
    /// An edge of the CFA or of the LBE summary (its source lines are highlighted).
    Edge(GraphKind, u32),
}

/// Dialogs and panels over the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Overlay {
    #[default]
    None,
    /// The help, at a glossary entry if one is named.
    Help(Option<&'static str>),
    Share,
    Knobs,
}

/// How the page shows the state: which tab, which graph, which overlay, which mode.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct View {
    pub tab: Tab,
    pub graph: GraphKind,
    pub overlay: Overlay,
    /// Presentation mode (a projector: large text, no knobs).
    pub presentation: bool,
    pub phone: PhoneView,
    /// The solver log's search text.
    pub log_search: String,
    /// `?embed`: read-only, for an iframe.
    pub embed: bool,
    /// The views `?embed=…` leaves out, as CSS classes.
    pub embed_hidden: Vec<&'static str>,
}

impl View {
    /// The view a page address asks for: `?embed[=views]`, `?present`.
    pub fn from_params(embed: Option<&str>, present: bool) -> View {
        View {
            presentation: present,
            embed: embed.is_some(),
            embed_hidden: embed.map(embed_hidden).unwrap_or_default(),
            ..View::default()
        }
    }
}

/// The CSS classes that hide the views `?embed=source,arg` leaves out (of `source`, `graphs`,
/// `arg`, `details`); none if the value names none of them.
pub fn embed_hidden(value: &str) -> Vec<&'static str> {
    const VIEWS: [(&str, &str); 4] = [
        ("source", "embed-no-source"),
        ("graphs", "embed-no-graphs"),
        ("arg", "embed-no-arg"),
        ("details", "embed-no-details"),
    ];
    let chosen: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|v| VIEWS.iter().any(|(name, _)| name == v))
        .collect();
    if chosen.is_empty() {
        return Vec::new();
    }
    VIEWS
        .iter()
        .filter(|(name, _)| !chosen.contains(name))
        .map(|(_, class)| *class)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::embed_hidden;

    #[test]
    fn embed_views() {
        assert!(embed_hidden("").is_empty());
        assert!(embed_hidden("1").is_empty(), "?embed=1 is every view");
        assert_eq!(
            embed_hidden("arg,details"),
            vec!["embed-no-source", "embed-no-graphs"]
        );
        assert_eq!(
            embed_hidden(" arg , nonsense"),
            vec!["embed-no-source", "embed-no-graphs", "embed-no-details"]
        );
    }
}
