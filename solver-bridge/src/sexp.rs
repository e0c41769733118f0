//! Splitting SMT-LIB text into top-level items.
//!
//! smtlib-lowlevel parses one command or term from the front of a string and ignores whatever
//! follows, so the bridge first splits text into its top-level items itself (respecting string
//! literals, quoted symbols and comments) and hands each item to the grammar separately. The
//! same splitter checks that a query is balanced before it is sent to a solver process, which
//! would otherwise wait forever for the missing parenthesis.

use std::fmt;

/// Deeper nesting is rejected (the grammar and the term printer are recursive).
pub const MAX_DEPTH: usize = 2_000;

/// One top-level item: an atom or a parenthesised list, with its byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item<'a> {
    pub text: &'a str,
    pub offset: usize,
}

impl Item<'_> {
    /// The first symbol inside a list item (`"assert"` for `(assert ...)`), if any.
    pub fn head(&self) -> Option<&str> {
        let inner = self.text.strip_prefix('(')?;
        let inner = inner.trim_start();
        let end = inner
            .find(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '"' || c == ';')
            .unwrap_or(inner.len());
        let h = &inner[..end];
        (!h.is_empty()).then_some(h)
    }
}

/// Malformed text, with the byte offset of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitError {
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

/// Splits `text` into its top-level items.
pub fn split(text: &str) -> Result<Vec<Item<'_>>, SplitError> {
    split_limited(text, MAX_DEPTH)
}

/// [`split`] with a tighter nesting limit than [`MAX_DEPTH`] (the browser's stack is smaller
/// than a native thread's).
pub fn split_limited(text: &str, max_depth: usize) -> Result<Vec<Item<'_>>, SplitError> {
    let max_depth = max_depth.min(MAX_DEPTH);
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut start = 0usize;
    let err = |message: &str, offset: usize| SplitError {
        message: message.to_string(),
        offset,
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                let s = i;
                i += 1;
                loop {
                    if i >= bytes.len() {
                        return Err(err("unterminated string literal", s));
                    }
                    if bytes[i] == b'"' {
                        if bytes.get(i + 1) == Some(&b'"') {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                i += 1;
                if depth == 0 {
                    items.push(Item {
                        text: &text[s..i],
                        offset: s,
                    });
                }
                continue;
            }
            b'|' => {
                let s = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'|' {
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(err("unterminated quoted symbol", s));
                }
                i += 1;
                if depth == 0 {
                    items.push(Item {
                        text: &text[s..i],
                        offset: s,
                    });
                }
                continue;
            }
            b'(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
                if depth > max_depth {
                    return Err(err(&format!("nesting too deep (limit {max_depth})"), i));
                }
            }
            b')' => {
                if depth == 0 {
                    return Err(err("unbalanced ')'", i));
                }
                depth -= 1;
                if depth == 0 {
                    items.push(Item {
                        text: &text[start..=i],
                        offset: start,
                    });
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => {
                if depth == 0 {
                    let s = i;
                    while i < bytes.len()
                        && !bytes[i].is_ascii_whitespace()
                        && !matches!(bytes[i], b'(' | b')' | b'"' | b'|' | b';')
                    {
                        i += 1;
                    }
                    items.push(Item {
                        text: &text[s..i],
                        offset: s,
                    });
                    continue;
                }
            }
        }
        i += 1;
    }
    if depth > 0 {
        return Err(err("missing ')'", start));
    }
    Ok(items)
}

/// The items inside a parenthesised list `( ... )` (offsets relative to `text`).
pub fn list(text: &str) -> Result<Vec<Item<'_>>, SplitError> {
    let t = text.trim();
    let start = text.len() - text.trim_start().len();
    if !(t.starts_with('(') && t.ends_with(')')) || t.len() < 2 {
        return Err(SplitError {
            message: format!("expected a list, found {t}"),
            offset: start,
        });
    }
    let inner = &t[1..t.len() - 1];
    let mut items = split(inner)?;
    for i in &mut items {
        i.offset += start + 1;
    }
    Ok(items)
}

/// The contents of an SMT-LIB string literal (`"a""b"` is `a"b`).
pub fn unquote_string(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    Some(inner.replace("\"\"", "\""))
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_items() {
        let items = split("sat (a (b \")\" |x)y|)) ; c (\n unsat").unwrap_or_default();
        let texts: Vec<&str> = items.iter().map(|i| i.text).collect();
        assert_eq!(texts, vec!["sat", "(a (b \")\" |x)y|))", "unsat"]);
        assert_eq!(items[1].head(), Some("a"));
    }

    #[test]
    fn rejects_unbalanced() {
        assert!(split("(a (b)").is_err());
        assert!(split("a)").is_err());
        assert!(split("\"abc").is_err());
        assert!(split(&"(".repeat(MAX_DEPTH + 1)).is_err());
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab", 0), (1, 1));
    }
}
