//! Writing a lesson in the page: the lesson's text beside the run, a section added at the
//! step shown with one key (its anchor and claims taken from the run), played in the lesson
//! player, downloaded as a file for `lessons/`, and shared in a link once played.

use crate::protocol::RunConfig;
use cpa_engine::events::Event;
use cpa_engine::lesson::{self, Lesson, MAX_LESSON_BYTES};
use cpa_engine::view::ArgView;

/// What the authoring tab does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthorMsg {
    /// The teacher's edit of the text.
    Edit(String),
    /// Add a section anchored at the step shown (key `a`).
    AddSection,
    /// Play the text in the lesson player (from its first section).
    Play,
    Download,
    /// Start again from the template for the program and analysis shown.
    New,
}

/// The lesson being written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Author {
    pub text: String,
    /// Why the last Play or Add refused (the text does not read, say).
    pub error: Option<String>,
}

/// A new lesson's text for the program `program` (a gallery example's path, or the file
/// name of a program typed in the page) under `config`, without sections.
pub fn template(program: &str, config: &RunConfig) -> String {
    let mut s = format!(
        "---\ntitle: A new lesson\nprogram: {program}\npreset: {}\n",
        config.preset
    );
    if !config.set.is_empty() {
        let knobs: Vec<String> = config.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        s.push_str(&format!("knobs: {}\n", knobs.join(", ")));
    }
    s.push_str("---\n");
    s
}

/// The anchor of the step `position` of a run whose events so far are `events`: `start`,
/// `verdict`, `refinement K` right after refinement K, else `event N`.
pub fn anchor_at(events: &[Event], position: usize) -> String {
    let position = position.min(events.len());
    if position == 0 {
        return "start".into();
    }
    match &events[position - 1] {
        Event::Verdict { .. } => "verdict".into(),
        Event::Refined { refinement, .. } => format!("refinement {refinement}"),
        _ => format!("event {position}"),
    }
}

/// A section anchored at `position`, with the claims the run makes there (refinements done,
/// the verdict) so that `cpa lesson check` keeps it true.
pub fn section_at(events: &[Event], position: usize, number: usize) -> String {
    let position = position.min(events.len());
    let anchor = anchor_at(events, position);
    let view = ArgView::replay(&events[..position]);
    let mut s = format!(
        "\n## Section {number} @ {anchor}\nWhat the run shows here, and why.\nexpect: refinements {}\n",
        view.refinements
    );
    if let Some(Event::Verdict { verdict, .. }) = events[..position].last() {
        let v = crate::state::lesson::verdict_name(*verdict).to_lowercase();
        s.push_str(&format!("expect: verdict {v}\n"));
    }
    s
}

/// `text` with `section` inserted before the first section whose anchor lands after
/// `position` in `events` (appended if there is none, or if the text does not read).
pub fn insert_section(
    text: &str,
    section: &str,
    events: &[Event],
    position: usize,
    line_of: &dyn Fn(u32) -> Option<u32>,
) -> String {
    let later = lesson::parse(text).ok().and_then(|l: Lesson| {
        l.sections.iter().find_map(|s| {
            lesson::resolve(s.anchor, events, line_of)
                .ok()
                .filter(|p| *p > position)
                .map(|_| s.line)
        })
    });
    match later {
        Some(line) => {
            let mut lines: Vec<&str> = text.lines().collect();
            let at = (line - 1).min(lines.len());
            let body = section.trim_start_matches('\n').trim_end_matches('\n');
            let mut out: Vec<&str> = lines.drain(..at).collect();
            out.extend(body.lines());
            out.push("");
            out.extend(lines);
            let mut s = out.join("\n");
            s.push('\n');
            s
        }
        None => {
            let mut s = text.trim_end_matches('\n').to_string();
            s.push('\n');
            s.push_str(section);
            s
        }
    }
}

/// The text cut to the lesson format's bound (a text field can be pasted into).
pub fn bounded(mut text: String) -> String {
    if text.len() > MAX_LESSON_BYTES {
        let mut cut = MAX_LESSON_BYTES;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// A file name for the lesson's download: its title in lower case, words joined by `-`.
pub fn file_name(text: &str) -> String {
    // The header's title line (the text need not read yet: no section, say).
    let title = text
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .find_map(|l| l.trim().strip_prefix("title:"))
        .unwrap_or("lesson");
    let slug: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .take(8)
        .collect::<Vec<_>>()
        .join("-");
    format!("{}.md", if slug.is_empty() { "lesson" } else { &slug })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cpa_engine::events::VerdictKind;

    fn events() -> Vec<Event> {
        vec![
            Event::Refined {
                pivot: Some(0),
                refinement: 1,
            },
            Event::Verdict {
                verdict: VerdictKind::True,
                reason: None,
            },
        ]
    }

    #[test]
    fn sections_take_their_anchor_and_claims_from_the_run() {
        let ev = events();
        assert_eq!(anchor_at(&ev, 0), "start");
        assert_eq!(anchor_at(&ev, 1), "refinement 1");
        assert_eq!(anchor_at(&ev, 2), "verdict");
        let s = section_at(&ev, 2, 3);
        assert!(s.contains("## Section 3 @ verdict"), "{s}");
        assert!(s.contains("expect: verdict true"), "{s}");
        let t = template("examples/gcd.c", &RunConfig::preset("bmc"));
        let none = |_: u32| None;
        // Appended in order; a section for an earlier step goes before the later one.
        let t = insert_section(&t, &section_at(&ev, 2, 1), &ev, 2, &none);
        let t = insert_section(&t, &section_at(&ev, 0, 2), &ev, 0, &none);
        let l = lesson::parse(&t).unwrap();
        let anchors: Vec<String> = l
            .sections
            .iter()
            .map(|s| format!("{:?}", s.anchor))
            .collect();
        assert_eq!(anchors, ["Start", "Verdict"], "{t}");
        assert_eq!(l.preset, "bmc");
        assert_eq!(file_name(&t), "a-new-lesson.md");
        assert_eq!(
            bounded("é".repeat(MAX_LESSON_BYTES)).len(),
            MAX_LESSON_BYTES
        );
    }
}
