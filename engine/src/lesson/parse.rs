//! The lesson format (docs/lessons.md): a header between `---` lines, then sections that start
//! with `## Title @ anchor`.

use super::{Anchor, Expect, Lesson, Question, Section, MAX_LESSON_BYTES, MAX_SECTIONS};
use crate::events::VerdictKind;

/// Reads a lesson; an error names the line (from 1) and what is wrong.
pub fn parse(text: &str) -> Result<Lesson, String> {
    if text.len() > MAX_LESSON_BYTES {
        return Err(format!(
            "the lesson has {} bytes; at most {MAX_LESSON_BYTES} are accepted",
            text.len()
        ));
    }
    let lines: Vec<&str> = text.lines().collect();
    if lines.first().map(|l| l.trim()) != Some("---") {
        return Err("line 1: a lesson starts with a header between '---' lines".into());
    }
    let end = lines
        .iter()
        .skip(1)
        .position(|l| l.trim() == "---")
        .map(|i| i + 1)
        .ok_or("the header has no closing '---' line")?;
    let mut title = None;
    let mut program = None;
    let mut preset = None;
    let mut knobs = Vec::new();
    for (i, l) in lines[1..end].iter().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (k, v) = l
            .split_once(':')
            .ok_or_else(|| format!("line {}: expected 'key: value'", i + 2))?;
        let v = v.trim().to_string();
        match k.trim() {
            "title" => title = Some(v),
            "program" => program = Some(v),
            "preset" => preset = Some(v),
            "knobs" => {
                for kv in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    let (a, b) = kv
                        .split_once('=')
                        .ok_or_else(|| format!("line {}: a knob is 'key=value'", i + 2))?;
                    knobs.push((a.trim().to_string(), b.trim().to_string()));
                }
            }
            other => return Err(format!("line {}: unknown header key '{other}'", i + 2)),
        }
    }
    let need = |v: Option<String>, k: &str| v.ok_or(format!("the header has no '{k}'"));
    let mut lesson = Lesson {
        title: need(title, "title")?,
        program: need(program, "program")?,
        preset: need(preset, "preset")?,
        knobs,
        sections: Vec::new(),
    };
    for (i, l) in lines.iter().enumerate().skip(end + 1) {
        let n = i + 1;
        if let Some(h) = l.strip_prefix("## ") {
            if lesson.sections.len() == MAX_SECTIONS {
                return Err(format!("line {n}: more than {MAX_SECTIONS} sections"));
            }
            let (t, a) = h
                .rsplit_once(" @ ")
                .ok_or_else(|| format!("line {n}: a section heading is '## Title @ anchor'"))?;
            lesson.sections.push(Section {
                title: t.trim().to_string(),
                anchor: anchor(a.trim()).map_err(|e| format!("line {n}: {e}"))?,
                body: String::new(),
                expects: Vec::new(),
                question: None,
                line: n,
            });
            continue;
        }
        let Some(s) = lesson.sections.last_mut() else {
            if l.trim().is_empty() {
                continue;
            }
            return Err(format!(
                "line {n}: text before the first section ('## Title @ anchor')"
            ));
        };
        if let Some(e) = l.trim().strip_prefix("expect:") {
            s.expects
                .push(expect(e.trim()).map_err(|e| format!("line {n}: {e}"))?);
        } else if let Some(q) = l.trim().strip_prefix("question:") {
            if s.question.is_some() {
                return Err(format!("line {n}: one question per section"));
            }
            s.question = Some(question(q.trim()).map_err(|e| format!("line {n}: {e}"))?);
        } else {
            s.body.push_str(l);
            s.body.push('\n');
        }
    }
    for s in &mut lesson.sections {
        s.body = s.body.trim().to_string();
    }
    if lesson.sections.is_empty() {
        return Err("the lesson has no section ('## Title @ anchor')".into());
    }
    Ok(lesson)
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{what} expects a number, got '{s}'"))
}

fn anchor(a: &str) -> Result<Anchor, String> {
    let (w, rest) = a.split_once(' ').unwrap_or((a, ""));
    Ok(match w {
        "start" => Anchor::Start,
        "verdict" => Anchor::Verdict,
        "event" => Anchor::Event(number(rest, "event")?),
        "refinement" => Anchor::Refinement(number(rest, "refinement")?),
        "line" => Anchor::Line(number(rest, "line")?),
        _ => {
            return Err(format!(
                "unknown anchor '{a}' (start, event N, refinement K, line L, verdict)"
            ))
        }
    })
}

fn verdict(v: &str) -> Result<VerdictKind, String> {
    Ok(match v.trim().to_ascii_lowercase().as_str() {
        "true" => VerdictKind::True,
        "false" => VerdictKind::False,
        "unknown" => VerdictKind::Unknown,
        _ => return Err(format!("a verdict is true, false or unknown, got '{v}'")),
    })
}

fn expect(e: &str) -> Result<Expect, String> {
    let (w, rest) = e.split_once(' ').unwrap_or((e, ""));
    Ok(match w {
        "state" => Expect::State(number(rest, "state")?),
        "predicate" if !rest.trim().is_empty() => Expect::Predicate(rest.trim().to_string()),
        "verdict" => Expect::Verdict(verdict(rest)?),
        "refinements" => Expect::Refinements(number(rest, "refinements")?),
        "line" => Expect::Line(number(rest, "line")?),
        _ => {
            return Err(format!(
                "unknown claim '{e}' (state N, predicate TEXT, verdict V, refinements K, line L)"
            ))
        }
    })
}

fn question(q: &str) -> Result<Question, String> {
    Ok(match q {
        "verdict" => Question::Verdict,
        "next-state" => Question::NextState,
        "next-covered" => Question::NextCovered,
        "predicate" => Question::Predicate,
        _ => {
            if let Some(line) = q.strip_prefix("invariant") {
                let line = line.trim();
                return line
                    .parse()
                    .ok()
                    .filter(|&l: &u32| l > 0)
                    .map(Question::Invariant)
                    .ok_or_else(|| {
                        format!("question: 'invariant LINE' wants the loop's line, not '{line}'")
                    });
            }
            return Err(format!(
                "unknown question '{q}' (verdict, next-state, next-covered, invariant LINE, predicate)"
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = "---\ntitle: T\nprogram: examples/gcd.c\npreset: predicate-lbe\nknobs: max-steps=100, refinement=predicate\n---\nIgnored? no:\n";

    #[test]
    fn header_sections_claims_questions() {
        let text = "---\ntitle: One loop\nprogram: examples/refine-loop.c\npreset: predicate-lbe\nknobs: max-steps=500\n---\n\n## The start @ start\nThe CFA first.\n\n## First refinement @ refinement 1\nexpect: refinements 1\nexpect: predicate x <= 2\nquestion: next-state\nWhich one?\n\n## End @ verdict\nexpect: verdict true\n";
        let l = parse(text).unwrap();
        assert_eq!(l.title, "One loop");
        assert_eq!(l.knobs, [("max-steps".to_string(), "500".to_string())]);
        assert_eq!(l.sections.len(), 3);
        assert_eq!(l.sections[0].body, "The CFA first.");
        assert_eq!(l.sections[1].anchor, Anchor::Refinement(1));
        assert_eq!(
            l.sections[1].expects,
            [Expect::Refinements(1), Expect::Predicate("x <= 2".into())]
        );
        assert_eq!(l.sections[1].question, Some(Question::NextState));
        assert_eq!(question("invariant 8"), Ok(Question::Invariant(8)));
        assert!(question("invariant").unwrap_err().contains("LINE"));
        assert!(question("invariant x").is_err());
        assert_eq!(question("predicate"), Ok(Question::Predicate));
        assert_eq!(l.sections[1].line, 11);
        assert_eq!(l.sections[2].expects, [Expect::Verdict(VerdictKind::True)]);
    }

    #[test]
    fn mistakes_name_their_line() {
        for (text, says) in [
            ("title: x\n", "line 1: a lesson starts"),
            ("---\ntitle: x\n", "no closing"),
            (
                "---\ntitle: x\npreset: p\n---\n## A @ start\n",
                "no 'program'",
            ),
            (LESSON, "line 7: text before the first section"),
            (
                "---\ntitle: T\nprogram: p\npreset: q\n---\n## A @ somewhere\n",
                "line 6: unknown anchor",
            ),
            (
                "---\ntitle: T\nprogram: p\npreset: q\n---\n## A @ event x\n",
                "line 6: event expects a number",
            ),
            (
                "---\ntitle: T\nprogram: p\npreset: q\n---\n## A @ start\nexpect: colour red\n",
                "line 7: unknown claim",
            ),
            ("---\ntitle: T\nprogram: p\npreset: q\n---\n", "no section"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        assert!(parse(&"x".repeat(MAX_LESSON_BYTES + 1))
            .unwrap_err()
            .contains("at most"));
    }
}
