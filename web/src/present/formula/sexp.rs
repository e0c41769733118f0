//! The engine's SMT-LIB text read as s-expressions (for showing: with the SSA indices that
//! do not matter dropped).

use std::rc::Rc;

/// An s-expression; cloning one is cheap (a list is shared).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Sx {
    Atom(String),
    List(Rc<[Sx]>),
}

pub(super) fn parse(text: &str) -> Option<Sx> {
    read_all(&tokens(text)?)
}

/// [`parse`], with SSA indices only where they matter: a variable that occurs with one index
/// only (and not unindexed) loses it (`x₁ = y₁` reads `x = y`; `x₂ = x₁ + 1` keeps both).
pub(super) fn parse_shown(text: &str) -> Option<Sx> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut tokens = tokens(text)?;
    let quoted = |t: &str| t.strip_prefix('|')?.strip_suffix('|').map(str::to_string);
    let mut seen: BTreeMap<String, BTreeSet<Option<String>>> = BTreeMap::new();
    for bare in tokens.iter().filter_map(|t| quoted(t)) {
        let (b, i) = split_index(&bare);
        seen.entry(b.to_string())
            .or_default()
            .insert(i.map(str::to_string));
    }
    for t in tokens.iter_mut() {
        if let Some(bare) = quoted(t) {
            if let (b, Some(_)) = split_index(&bare) {
                if seen.get(b).is_some_and(|ix| ix.len() == 1) {
                    *t = format!("|{b}|");
                }
            }
        }
    }
    read_all(&tokens)
}

/// `base#k` split into the base and the SSA index (`None`: unindexed).
pub(super) fn split_index(bare: &str) -> (&str, Option<&str>) {
    match bare.rsplit_once('#') {
        Some((b, i)) if !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()) => (b, Some(i)),
        _ => (bare, None),
    }
}

fn read_all(tokens: &[String]) -> Option<Sx> {
    let mut pos = 0;
    let sx = read(tokens, &mut pos, 0)?;
    (pos == tokens.len()).then_some(sx)
}

pub(super) fn tokens(text: &str) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '(' | ')' => {
                tokens.push(c.to_string());
                chars.next();
            }
            '|' => {
                chars.next();
                let mut s = String::from("|");
                loop {
                    let (_, d) = chars.next()?;
                    s.push(d);
                    if d == '|' {
                        break;
                    }
                }
                tokens.push(s);
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let start = i;
                let mut end = text.len();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_whitespace() || d == '(' || d == ')' || d == '|' {
                        end = j;
                        break;
                    }
                    chars.next();
                }
                tokens.push(text[start..end].to_string());
            }
        }
    }
    Some(tokens)
}

fn read(tokens: &[String], pos: &mut usize, depth: usize) -> Option<Sx> {
    if depth > 200 {
        return None;
    }
    let t = tokens.get(*pos)?;
    *pos += 1;
    match t.as_str() {
        "(" => {
            let mut items = Vec::new();
            loop {
                if tokens.get(*pos)? == ")" {
                    *pos += 1;
                    return Some(Sx::List(items.into()));
                }
                items.push(read(tokens, pos, depth + 1)?);
            }
        }
        ")" => None,
        _ => Some(Sx::Atom(t.clone())),
    }
}
