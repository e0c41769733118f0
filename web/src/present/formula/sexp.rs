//! The engine's SMT-LIB text read as s-expressions, with the SSA indices that do not matter
//! dropped.

use std::rc::Rc;

/// An s-expression; cloning one is cheap (a list is shared).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Sx {
    Atom(String),
    List(Rc<[Sx]>),
}

pub(super) fn parse(text: &str) -> Option<Sx> {
    let tokens = tokens(text)?;
    let mut pos = 0;
    let sx = read(&tokens, &mut pos, 0)?;
    (pos == tokens.len()).then_some(sx)
}

/// `|base#k|` split into the base and the index.
pub(super) fn indexed(atom: &str) -> Option<(&str, &str)> {
    let bare = atom.strip_prefix('|')?.strip_suffix('|')?;
    match bare.rsplit_once('#') {
        Some((b, i)) if !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()) => Some((b, i)),
        _ => None,
    }
}

/// SSA indices only where they matter: a variable that occurs with one index only (and not
/// unindexed) loses it (`x₁ = y₁` reads `x = y`; `x₂ = x₁ + 1` keeps both).
pub(super) fn drop_single_indices(tokens: &mut [String]) {
    use std::collections::{BTreeMap, BTreeSet};
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for t in tokens.iter() {
        if let Some((b, i)) = indexed(t) {
            seen.entry(b.to_string()).or_default().insert(i.to_string());
        } else if let Some(b) = t.strip_prefix('|').and_then(|t| t.strip_suffix('|')) {
            seen.entry(b.to_string()).or_default().insert(String::new());
        }
    }
    for t in tokens.iter_mut() {
        let single = indexed(t)
            .filter(|(b, _)| seen.get(*b).is_some_and(|ix| ix.len() == 1))
            .map(|(b, _)| format!("|{b}|"));
        if let Some(u) = single {
            *t = u;
        }
    }
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

pub(super) fn read(tokens: &[String], pos: &mut usize, depth: usize) -> Option<Sx> {
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
