//! Share links: the playground's state (program, configuration, the step reached, the view
//! and the selection) in the URL fragment, as `#v1=` followed by the URL-safe base64 (no
//! padding) of the raw-deflated JSON of a [`Link`].
//!
//! The schema is versioned: a later release keeps decoding `v1` (committed fixtures under
//! `web/tests/links/` are decoded by the tests), and a link of a version it does not know is
//! refused with a message instead of being guessed at. The decoder is bounded: at most
//! [`MAX_FRAGMENT`] bytes of fragment and [`MAX_INFLATED`] bytes after decompression, and
//! everything it returns is validated (a known example or a bounded program text, a
//! configuration the engine accepts). The page renders every string from a link as text.

use crate::present::examples;
use crate::protocol::RunConfig;
use crate::state::view::{GraphKind, Selection, Tab};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The schema this release writes.
pub const VERSION: u32 = 1;
/// The longest fragment the decoder looks at.
pub const MAX_FRAGMENT: usize = 64 * 1024;
/// The largest decompressed state the decoder accepts.
pub const MAX_INFLATED: usize = 1 << 20;
/// The longest file name a link may carry.
pub const MAX_FILE_NAME: usize = 128;
/// The largest step index a link may ask for (a run ends much earlier, at its limits).
pub const MAX_STEP: u64 = 1 << 32;

/// The program of a link: a gallery example by its key (short links), or a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    Example(&'static examples::Example),
    Text { file: String, source: String },
}

impl Program {
    /// What the page loads for it: the gallery example (if it is one), file name and text.
    pub fn into_parts(self) -> (Option<&'static examples::Example>, String, std::rc::Rc<str>) {
        match self {
            Program::Example(e) => (Some(e), e.file.to_string(), std::rc::Rc::from(e.source)),
            Program::Text { file, source } => (None, file, std::rc::Rc::from(source)),
        }
    }
}

/// What a share link restores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub program: Program,
    /// The preset and the knobs set on top of it.
    pub config: RunConfig,
    /// The event index reached ("event k of n").
    pub step: u64,
    pub tab: Tab,
    pub graph: GraphKind,
    pub selection: Option<Selection>,
    /// A bundled lesson and the section shown (from 0); the key is empty for a lesson
    /// written in the page, whose text is [`Link::lesson_text`].
    pub lesson: Option<(String, u32)>,
    pub lesson_text: Option<String>,
    /// Compare mode: the right side's configuration, how it steps, its step reached.
    pub compare: Option<CompareLink>,
    /// The race of every preset: run it again on opening (its figures are not carried).
    pub race: bool,
}

/// Compare mode's part of a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareLink {
    pub config: RunConfig,
    pub sync: crate::state::compare::Sync,
    pub step: u64,
}

/// Compare mode's part of a v1 link as it travels.
#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CompareV1 {
    #[serde(rename = "c")]
    preset: String,
    #[serde(rename = "k", default, skip_serializing_if = "Vec::is_empty")]
    set: Vec<(String, String)>,
    /// `event`, `refinement` or `alone`.
    #[serde(rename = "y", default, skip_serializing_if = "Option::is_none")]
    sync: Option<String>,
    #[serde(rename = "n", default, skip_serializing_if = "is_zero")]
    step: u64,
}

/// Schema v1 as it travels: short keys, everything but the program optional.
#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct V1 {
    /// A gallery example's key.
    #[serde(rename = "x", default, skip_serializing_if = "Option::is_none")]
    example: Option<String>,
    /// File name and text of a program that is not (or no longer) a gallery example.
    #[serde(rename = "f", default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(rename = "s", default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    /// Preset.
    #[serde(rename = "c")]
    preset: String,
    /// Knobs, in the order they were set.
    #[serde(rename = "k", default, skip_serializing_if = "Vec::is_empty")]
    set: Vec<(String, String)>,
    /// Step reached.
    #[serde(rename = "n", default, skip_serializing_if = "is_zero")]
    step: u64,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    tab: Option<Tab>,
    #[serde(rename = "g", default, skip_serializing_if = "Option::is_none")]
    graph: Option<GraphKind>,
    #[serde(rename = "sel", default, skip_serializing_if = "Option::is_none")]
    selection: Option<Selection>,
    /// A bundled lesson's key and the section shown.
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    lesson: Option<(String, u32)>,
    /// The text of a lesson written in the page (with an empty key in `l`).
    #[serde(rename = "lt", default, skip_serializing_if = "Option::is_none")]
    lesson_text: Option<String>,
    /// Compare mode.
    #[serde(rename = "cmp", default, skip_serializing_if = "Option::is_none")]
    compare: Option<CompareV1>,
    /// The race.
    #[serde(rename = "r", default, skip_serializing_if = "is_false")]
    race: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why a fragment does not open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    TooLong(usize),
    NotALink,
    FutureVersion(u64),
    Corrupted(&'static str),
    TooLarge,
    Invalid(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::TooLong(n) => write!(
                f,
                "the link is too long ({n} characters after '#'; at most {MAX_FRAGMENT})"
            ),
            LinkError::NotALink => write!(f, "the part after '#' is not a playground link"),
            LinkError::FutureVersion(v) => write!(
                f,
                "the link was made by a newer release (schema v{v}); this one opens v{VERSION} links"
            ),
            LinkError::Corrupted(what) => write!(f, "the link is damaged ({what})"),
            LinkError::TooLarge => write!(
                f,
                "the link unpacks to more than {} KiB",
                MAX_INFLATED / 1024
            ),
            LinkError::Invalid(why) => write!(f, "the link is not valid: {why}"),
        }
    }
}

impl Link {
    /// The fragment (without `#`): `v1=` and the payload.
    pub fn encode(&self) -> String {
        let mut v = V1 {
            preset: self.config.preset.clone(),
            set: self.config.set.clone(),
            step: self.step,
            tab: (self.tab != Tab::default()).then_some(self.tab),
            graph: (self.graph != GraphKind::default()).then_some(self.graph),
            selection: self.selection,
            lesson: self.lesson.clone(),
            lesson_text: self.lesson_text.clone(),
            compare: self.compare.as_ref().map(|c| CompareV1 {
                preset: c.config.preset.clone(),
                set: c.config.set.clone(),
                sync: (c.sync != Default::default()).then(|| c.sync.name().to_string()),
                step: c.step,
            }),
            race: self.race,
            ..V1::default()
        };
        match &self.program {
            Program::Example(e) => v.example = Some(e.key.to_string()),
            Program::Text { file, source } => {
                v.file = Some(file.clone());
                v.source = Some(source.clone());
            }
        }
        let json = serde_json::to_vec(&v).unwrap_or_default();
        let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
        format!("v{VERSION}={}", URL_SAFE_NO_PAD.encode(packed))
    }

    /// Decodes a URL fragment (with or without its `#`). `Ok(None)`: there is none.
    pub fn decode(fragment: &str) -> Result<Option<Link>, LinkError> {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        if fragment.is_empty() {
            return Ok(None);
        }
        if fragment.len() > MAX_FRAGMENT {
            return Err(LinkError::TooLong(fragment.len()));
        }
        let (version, payload) = fragment.split_once('=').ok_or(LinkError::NotALink)?;
        let number = version
            .strip_prefix('v')
            .filter(|n| !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()))
            .ok_or(LinkError::NotALink)?;
        let number: u64 = number.parse().map_err(|_| LinkError::NotALink)?;
        if number != u64::from(VERSION) {
            return Err(if number > u64::from(VERSION) {
                LinkError::FutureVersion(number)
            } else {
                LinkError::NotALink
            });
        }
        let packed = URL_SAFE_NO_PAD
            .decode(payload.trim_end_matches('='))
            .map_err(|_| LinkError::Corrupted("not base64"))?;
        let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED)
            .map_err(|e| match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
                _ => LinkError::Corrupted("not compressed data"),
            })?;
        let v: V1 = serde_json::from_slice(&json)
            .map_err(|e| LinkError::Invalid(format!("unreadable state ({e})")))?;
        v.validate().map(Some)
    }
}

impl V1 {
    fn validate(self) -> Result<Link, LinkError> {
        let invalid = |s: String| Err(LinkError::Invalid(s));
        let program = match (self.example, self.file, self.source) {
            (Some(key), None, None) => match examples::by_key(&key) {
                Some(e) => Program::Example(e),
                None => return invalid(format!("no example is called '{}'", clip(&key))),
            },
            (None, Some(file), Some(source)) => {
                let name_ok = !file.is_empty()
                    && file.chars().count() <= MAX_FILE_NAME
                    && !file
                        .chars()
                        .any(|c| c.is_control() || c == '/' || c == '\\');
                if !name_ok {
                    return invalid(format!("'{}' is not a file name", clip(&file)));
                }
                Program::Text { file, source }
            }
            _ => return invalid("it names no program (an example or a file and its text)".into()),
        };
        let config = RunConfig {
            preset: self.preset,
            set: self.set,
        };
        if let Err(e) = config.resolve() {
            return invalid(format!("its configuration is refused: {e}"));
        }
        if self.step > MAX_STEP {
            return invalid(format!("step {} is beyond any run", self.step));
        }
        match (&self.lesson, &self.lesson_text) {
            (Some((key, section)), Some(text)) if key.is_empty() => {
                if text.len() > cpa_engine::lesson::MAX_LESSON_BYTES {
                    return invalid(format!(
                        "its lesson has {} bytes; at most {} are accepted",
                        text.len(),
                        cpa_engine::lesson::MAX_LESSON_BYTES
                    ));
                }
                match cpa_engine::lesson::parse(text) {
                    Ok(l) if (*section as usize) < l.sections.len() => {}
                    Ok(_) => return invalid(format!("the lesson has no section {section}")),
                    Err(e) => return invalid(format!("its lesson does not read: {}", clip(&e))),
                }
            }
            (_, Some(_)) => return invalid("a lesson text without a lesson".into()),
            _ => {}
        }
        if let Some((key, section)) = self.lesson.as_ref().filter(|(k, _)| !k.is_empty()) {
            match crate::present::lessons::load(key) {
                Ok((_, l, _)) if (*section as usize) < l.sections.len() => {}
                Ok(_) => return invalid(format!("the lesson has no section {section}")),
                Err(_) => return invalid(format!("no lesson is called '{}'", clip(key))),
            }
        }
        let compare = match self.compare {
            None => None,
            Some(c) => {
                let config = RunConfig {
                    preset: c.preset,
                    set: c.set,
                };
                if let Err(e) = config.resolve() {
                    return invalid(format!("its compared configuration is refused: {e}"));
                }
                let sync = match c.sync.as_deref() {
                    None => Default::default(),
                    Some(s) => match crate::state::compare::Sync::parse(s) {
                        Some(s) => s,
                        None => return invalid(format!("'{}' is no way of stepping", clip(s))),
                    },
                };
                if c.step > MAX_STEP {
                    return invalid(format!("step {} is beyond any run", c.step));
                }
                Some(CompareLink {
                    config,
                    sync,
                    step: c.step,
                })
            }
        };
        Ok(Link {
            program,
            config,
            step: self.step,
            tab: self.tab.unwrap_or_default(),
            graph: self.graph.unwrap_or_default(),
            selection: self.selection,
            lesson: self.lesson,
            lesson_text: self.lesson_text,
            compare,
            race: self.race,
        })
    }
}

/// At most 40 characters of a string from a link, for a message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_travels_in_the_link() {
        let mut link = text_link(12);
        link.compare = Some(CompareLink {
            config: RunConfig::preset("predicate-sbe"),
            sync: crate::state::compare::Sync::Refinement,
            step: 40,
        });
        link.race = true;
        assert_eq!(Link::decode(&link.encode()).unwrap(), Some(link.clone()));
        // A compared configuration the engine refuses is refused with the link.
        link.compare = Some(CompareLink {
            config: RunConfig::preset("no-such-preset"),
            sync: Default::default(),
            step: 0,
        });
        let e = Link::decode(&link.encode()).unwrap_err();
        assert!(e.to_string().contains("compared configuration"), "{e}");
    }

    fn text_link(step: u64) -> Link {
        Link {
            program: Program::Text {
                file: "mine.c".into(),
                source: "int main(void) { return 0; }\n".into(),
            },
            config: RunConfig {
                preset: "impact".into(),
                set: vec![("max-refinements".into(), "7".into())],
            },
            step,
            tab: Tab::Log,
            graph: GraphKind::Lbe,
            selection: Some(Selection::State(3)),
            lesson: None,
            lesson_text: None,
            compare: None,
            race: false,
        }
    }

    #[test]
    fn round_trip() {
        for link in [
            text_link(0),
            text_link(200),
            Link {
                program: Program::Example(&examples::EXAMPLES[0]),
                config: RunConfig::preset("bmc"),
                step: 12,
                tab: Tab::default(),
                graph: GraphKind::default(),
                selection: None,
                lesson: None,
                lesson_text: None,
                compare: None,
                race: false,
            },
        ] {
            let s = link.encode();
            assert!(s.starts_with("v1="), "{s}");
            assert!(
                s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_=".contains(&b)),
                "{s}"
            );
            assert_eq!(Link::decode(&format!("#{s}")), Ok(Some(link)));
        }
    }

    #[test]
    fn an_example_link_is_short() {
        let link = Link {
            program: Program::Example(examples::by_key("lbe-figure1").unwrap()),
            config: RunConfig::preset("predicate-lbe"),
            step: 40,
            tab: Tab::default(),
            graph: GraphKind::default(),
            selection: None,
            lesson: None,
            lesson_text: None,
            compare: None,
            race: false,
        };
        assert!(link.encode().len() < 100, "{}", link.encode());
    }

    /// "Lesson L, section S" travels in the link (short enough for a slide), and a lesson or
    /// section that does not exist is refused with the reason.
    #[test]
    fn a_lesson_section_link() {
        let mut link = Link {
            program: Program::Example(examples::by_key("unifying-fig2").unwrap()),
            config: RunConfig::preset("predicate-lbe"),
            step: 0,
            tab: Tab::default(),
            graph: GraphKind::default(),
            selection: None,
            lesson: Some(("one-cegar-loop".into(), 2)),
            lesson_text: None,
            compare: None,
            race: false,
        };
        let s = link.encode();
        assert!(s.len() < 120, "{s}");
        assert_eq!(Link::decode(&s), Ok(Some(link.clone())));
        for (lesson, says) in [
            (("one-cegar-loop", 99), "no section 99"),
            (
                ("no-such-lesson", 0),
                "no lesson is called 'no-such-lesson'",
            ),
        ] {
            link.lesson = Some((lesson.0.into(), lesson.1));
            let e = Link::decode(&link.encode()).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn empty_fragment_is_no_link() {
        assert_eq!(Link::decode(""), Ok(None));
        assert_eq!(Link::decode("#"), Ok(None));
    }

    #[test]
    fn refusals_say_why() {
        let pack = |json: &str| {
            format!(
                "v1={}",
                URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6))
            )
        };
        let cases: Vec<(String, &str)> = vec![
            ("hello".into(), "not a playground link"),
            ("v2=abc".into(), "newer release (schema v2)"),
            ("v1=!!!".into(), "damaged (not base64)"),
            ("v1=AAAA".into(), "damaged"),
            ("x".repeat(MAX_FRAGMENT + 1), "too long"),
            (pack("{\"c\":\"bmc\"}"), "names no program"),
            (
                pack("{\"x\":\"nope\",\"c\":\"bmc\"}"),
                "no example is called 'nope'",
            ),
            (
                pack("{\"x\":\"gcd\",\"c\":\"fast\"}"),
                "unknown preset 'fast'",
            ),
            (
                pack("{\"x\":\"gcd\",\"c\":\"bmc\",\"k\":[[\"allsat-limit\",\"0\"]]}"),
                "configuration is refused",
            ),
            (
                pack("{\"f\":\"../etc/passwd\",\"s\":\"\",\"c\":\"bmc\"}"),
                "not a file name",
            ),
            (
                pack("{\"x\":\"gcd\",\"c\":\"bmc\",\"evil\":1}"),
                "unreadable state",
            ),
            (pack("[1,2"), "unreadable state"),
            (
                pack(&format!(
                    "{{\"x\":\"gcd\",\"c\":\"bmc\",\"n\":{}}}",
                    u64::MAX
                )),
                "beyond any run",
            ),
        ];
        for (fragment, says) in cases {
            let e = Link::decode(&fragment).expect_err(&fragment);
            assert!(e.to_string().contains(says), "{fragment}: {e}");
        }
    }

    #[test]
    fn a_bomb_is_refused() {
        let bomb = vec![b' '; MAX_INFLATED + 10];
        let fragment = format!(
            "v1={}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&bomb, 9))
        );
        assert!(fragment.len() < MAX_FRAGMENT);
        assert_eq!(Link::decode(&fragment), Err(LinkError::TooLarge));
    }
}
