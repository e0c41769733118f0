//! The bundled lessons (`lessons/*.md`, docs/lessons.md), embedded at build time like the
//! gallery; each names its program by a gallery example's path.

use crate::present::examples::{self, Example};
use cpa_engine::lesson::{self, Lesson};

/// A bundled lesson: its key (the file's stem, the share-link key) and text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bundled {
    pub key: &'static str,
    pub text: &'static str,
}

macro_rules! lesson {
    ($key:expr) => {
        Bundled {
            key: $key,
            text: include_str!(concat!("../../../lessons/", $key, ".md")),
        }
    };
}

/// In teaching order: a first course, then one lesson per paper.
pub const LESSONS: &[Bundled] = &[
    lesson!("what-is-a-cfa"),
    lesson!("one-cegar-loop"),
    lesson!("induction-strengthening"),
    lesson!("abe-loop"),
    lesson!("lbe-blocks"),
    lesson!("unifying-view"),
    lesson!("symbolic-cegar"),
    lesson!("efficient-cegar"),
];

/// A bundled lesson, read, with the gallery example of its program.
pub fn load(key: &str) -> Result<(&'static Bundled, Lesson, &'static Example), String> {
    let b = LESSONS
        .iter()
        .find(|b| b.key == key)
        .ok_or_else(|| format!("no lesson '{key}'"))?;
    let l = lesson::parse(b.text).map_err(|e| format!("{key}: {e}"))?;
    let e = examples::by_path(&l.program)
        .ok_or_else(|| format!("{key}: the program {} is not in the gallery", l.program))?;
    Ok((b, l, e))
}

/// The title of every bundled lesson (for the select), by key.
pub fn titles() -> Vec<(&'static str, String)> {
    LESSONS
        .iter()
        .map(|b| {
            let title = load(b.key).map_or_else(|e| e, |(_, l, _)| l.title);
            (b.key, title)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bundled lesson reads and opens a gallery example (the anchors are checked
    /// against real runs by `cpa lesson check`).
    #[test]
    fn every_bundled_lesson_opens_an_example() {
        for b in LESSONS {
            let (_, l, e) = load(b.key).unwrap();
            assert!(!l.sections.is_empty(), "{}", b.key);
            assert!(e.source.contains("main"), "{}", b.key);
        }
    }
}
