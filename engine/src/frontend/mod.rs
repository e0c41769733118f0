//! C front end: built-in preprocessing, parsing with lang-c, and lowering of the AST into the
//! CFA ([`crate::cfa`]). Every problem with the input is a [`Diagnostic`]; no input panics.

mod arith;
mod builder;
mod builtins;
mod call;
mod cond;
mod decl;
mod escape;
mod expr;
mod function;
mod headers;
mod init;
pub mod invariant;
mod layout;
pub use layout::MAX_CELLS;
mod lower;
mod memory;
mod objects;
mod place;
mod points_to;
pub mod preprocess;
mod scope;
mod stmt;
mod types;
mod value;

use crate::cfa::Cfa;
use crate::diag::{Diagnostic, Severity, SourceMap, Span};
pub use builtins::Spec;
use lang_c::driver::{parse_preprocessed, Config, Flavor};

/// A successfully parsed program: its CFA and the warnings the front end produced.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub cfa: Cfa,
    pub warnings: Vec<Diagnostic>,
}

/// Maximum nesting of parentheses, brackets and braces. lang-c's parser is recursive; deeper
/// inputs could exhaust the stack (an abort, not a recoverable panic), so they are rejected.
const MAX_NESTING: usize = 120;
/// Maximum input size accepted by the playground.
const MAX_SOURCE_BYTES: usize = 2 << 20;
/// At most this many errors are reported.
pub(crate) const MAX_ERRORS: usize = 50;

/// Parses `source` (the contents of `file`) and builds its CFA, with the playground's default
/// errors ([`Spec::Errors`]).
pub fn parse_program(file: &str, source: &str) -> Result<Parsed, Vec<Diagnostic>> {
    parse_program_for(file, source, Spec::Errors)
}

/// Parses `source` and builds its CFA with the error locations of `spec`.
pub fn parse_program_for(file: &str, source: &str, spec: Spec) -> Result<Parsed, Vec<Diagnostic>> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(vec![Diagnostic::error(
            Span::point(1, 1),
            format!(
                "input is {} bytes; at most {} are accepted",
                source.len(),
                MAX_SOURCE_BYTES
            ),
        )]);
    }
    let pre = preprocess::preprocess(source);
    let (errors, mut warnings): (Vec<_>, Vec<_>) = pre
        .diagnostics
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    if !errors.is_empty() {
        return Err(errors);
    }
    check_nesting(&pre.text, &pre.map)?;
    check_tokens(&pre.text, &pre.map)?;
    check_increment_runs(&pre.text, &pre.map)?;
    let config = Config {
        cpp_command: String::new(),
        cpp_options: Vec::new(),
        flavor: Flavor::GnuC11,
    };
    let mut text = pre.text;
    let mut map = pre.map;
    let mut implicit = 0;
    let parse = loop {
        match parse_preprocessed(&config, text) {
            Ok(p) => break p,
            Err(e) => {
                // C89's implicit `int` (`extern f();`, `main() {`): the declaration is read
                // with `int` written out, and a warning says so.
                let at = e.offset;
                text = e.source;
                match implicit_int_name(&text, at) {
                    Some(name) if implicit < MAX_IMPLICIT_INT => {
                        warnings.push(Diagnostic::warning(
                            map.span(at, at + name.len()),
                            format!(
                                "type specifier missing for '{name}': 'int' assumed (implicit int)"
                            ),
                        ));
                        text.insert_str(at, "int ");
                        map.insert(at, 4);
                        implicit += 1;
                    }
                    _ => return Err(vec![syntax_error_at(&text, at, &e.expected, &map)]),
                }
            }
        }
    };
    let pre_map = map;
    let mut result = lower::lower(file, &parse.unit, &pre_map, &parse.source, spec)?;
    warnings.append(&mut result.warnings);
    result.warnings = warnings;
    Ok(result)
}

/// The parser's expected tokens as a reader wants them: what usually ends the mistake first
/// (`;`, closing brackets), "an expression" for the tokens that start one, and without the
/// grammar's inner pieces (`[_a-zA-Z]`, literal suffixes, the empty string).
fn readable_expected(expected: &[&str]) -> Vec<String> {
    const CLOSERS: [&str; 5] = [";", "}", ")", "]", ","];
    const EXPRESSION_START: [&str; 11] = [
        "[_a-zA-Z]",
        "(",
        "!",
        "\"",
        "&",
        "*",
        "+",
        "++",
        "-",
        "--",
        "~",
    ];
    // Summarised as "an expression", "an identifier" or "a type", or pieces of literals.
    const INNER: [&str; 7] = [
        "",
        "[_a-zA-Z]",
        "[uUL]",
        "u8",
        "[0-9]",
        "[eE]",
        "<typedef_name>",
    ];
    let has = |t: &str| expected.contains(&t);
    let mut out: Vec<String> = CLOSERS
        .iter()
        .filter(|t| has(t))
        .map(|t| format!("'{t}'"))
        .collect();
    let expression = has("[_a-zA-Z]") && has("(") && has("!");
    if expression {
        out.push("an expression".into());
    } else if has("[_a-zA-Z]") {
        out.push("an identifier".into());
    }
    if has("<typedef_name>") {
        out.push("a type".into());
    }
    let mut rest: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|t| {
            !CLOSERS.contains(t)
                && !INNER.contains(t)
                && (!expression || !EXPRESSION_START.contains(t))
        })
        .collect();
    rest.sort_unstable();
    out.extend(rest.into_iter().map(|t| match t {
        "\"" => "a string".to_string(),
        t => format!("'{t}'"),
    }));
    out
}

/// Most declarations read with an implicit `int` (each costs one more parse).
const MAX_IMPLICIT_INT: usize = 16;

/// The name declared with an implicit `int` when the parser stopped at `at`: an identifier
/// followed by `(` that starts a declaration (at the start of the text, after `;` or `}`, or
/// after a storage class).
fn implicit_int_name(text: &str, at: usize) -> Option<&str> {
    let rest = text.get(at..)?;
    let len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let name = &rest[..len];
    if len == 0 || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if !rest[len..].trim_start().starts_with('(') {
        return None;
    }
    let before = text[..at].trim_end();
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let ok = match &before[word_start..] {
        "extern" | "static" | "inline" | "__inline" | "__inline__" => true,
        "" => before.is_empty() || before.ends_with(';') || before.ends_with('}'),
        _ => false,
    };
    ok.then_some(name)
}

fn syntax_error_at(
    source: &str,
    offset: usize,
    expected: &std::collections::HashSet<&'static str>,
    map: &SourceMap,
) -> Diagnostic {
    let expected: Vec<&str> = expected.iter().copied().collect();
    let expected = readable_expected(&expected);
    let found = source[offset.min(source.len())..]
        .split(|c: char| c.is_whitespace())
        .find(|s| !s.is_empty())
        .map(|s| s.chars().take(20).collect::<String>());
    let mut msg = match found {
        Some(tok) => format!("syntax error at '{tok}'"),
        None => "syntax error at end of input".to_string(),
    };
    if !expected.is_empty() {
        msg.push_str(&format!(
            "; expected {}{}",
            expected[..expected.len().min(8)].join(", "),
            if expected.len() > 8 { ", ..." } else { "" }
        ));
    }
    Diagnostic::error(map.span(offset, offset + 1), msg)
}

fn check_nesting(text: &str, map: &SourceMap) -> Result<(), Vec<Diagnostic>> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(vec![Diagnostic::error(
                        map.span(i, i + 1),
                        format!("nesting deeper than {MAX_NESTING} levels is not supported"),
                    )]);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// lang-c's parser backtracks over every way to read `--` as one token or as two `-`, so a run
/// of `++`/`--` in prefix position that does not end in an operand takes time exponential in
/// its length (24 of them: seconds; 40: hours). Real code never has more than two in a row;
/// runs longer than this are rejected before parsing. Whitespace and the other prefix
/// operators do not end a run; string and character literals are skipped.
const MAX_INCREMENT_RUN: usize = 12;

fn check_increment_runs(text: &str, map: &SourceMap) -> Result<(), Vec<Diagnostic>> {
    let bytes = text.as_bytes();
    let mut run = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if (b == b'+' || b == b'-') && bytes.get(i + 1) == Some(&b) {
            run += 1;
            if run > MAX_INCREMENT_RUN {
                return Err(vec![Diagnostic::error(
                    map.span(i, i + 2),
                    format!(
                        "more than {MAX_INCREMENT_RUN} increment or decrement operators in a row are not supported"
                    ),
                )]);
            }
            i += 2;
            continue;
        }
        if b == b'"' || b == b'\'' {
            // A string or character literal: its contents are no operators.
            i += 1;
            while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
        }
        if !(b.is_ascii_whitespace() || b"+-!~*&(".contains(&b)) {
            run = 0;
        }
        i += 1;
    }
    Ok(())
}

/// Long runs of prefix operators and very long expressions also make the parser recurse; they
/// are bounded by counting operator tokens between statement boundaries.
fn check_tokens(text: &str, map: &SourceMap) -> Result<(), Vec<Diagnostic>> {
    const MAX_RUN: usize = 400;
    let mut run = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b';' | b'{' | b'}' => run = 0,
            b'!' | b'~' | b'-' | b'+' | b'*' | b'&' | b'(' | b'?' | b'=' | b'<' | b'>' | b'|'
            | b'^' | b'%' | b'/' | b',' => {
                run += 1;
                if run > MAX_RUN {
                    return Err(vec![Diagnostic::error(
                        map.span(i, i + 1),
                        format!("expression with more than {MAX_RUN} operators is not supported"),
                    )]);
                }
            }
            _ => {}
        }
    }
    Ok(())
}
