//! A built-in C preprocessor for what teaching programs use: comments, includes of standard
//! headers (their relevant declarations are built in), object-like and simple function-like
//! `#define`s, `#undef`, conditional compilation, line markers. The browser has no system
//! preprocessor, so the CLI and the playground both use this one.
//!
//! The output keeps the line structure of the input (every input line is exactly one output
//! line), so diagnostics map back to the user's file through [`SourceMap`].

use crate::diag::{Diagnostic, SourceMap, Span};
use crate::frontend::headers::{header_macros, header_prelude};
use std::collections::{BTreeMap, BTreeSet};

pub struct Preprocessed {
    pub text: String,
    pub map: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug)]
struct Macro {
    /// `None` for object-like macros.
    params: Option<Vec<String>>,
    body: String,
}

/// Maximum nesting of macro expansion, a guard against pathological inputs.
const MAX_EXPANSION_DEPTH: usize = 64;
/// Maximum length of one expanded line.
const MAX_LINE_LEN: usize = 1 << 16;

struct Cond {
    /// Lines in this group are emitted.
    active: bool,
    /// Some group of this `#if` chain has been taken already.
    taken: bool,
    /// The enclosing group is active.
    parent: bool,
    line: u32,
}

pub fn preprocess(src: &str) -> Preprocessed {
    let src = src.replace("\r\n", "\n");
    let lines = strip_comments(&src);
    let mut pp = Pp {
        macros: predefined(),
        included: BTreeSet::new(),
        diagnostics: Vec::new(),
    };
    let mut map = SourceMap::new(&src);
    let mut out = String::with_capacity(src.len() + 64);
    let mut conds: Vec<Cond> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line_no = i as u32 + 1;
        let line = &lines[i];
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') {
            // Join continuation lines; each of them becomes an empty output line.
            let mut directive = line.clone();
            let mut consumed = 1;
            while directive.ends_with('\\') && i + consumed < lines.len() {
                directive.pop();
                directive.push(' ');
                directive.push_str(&lines[i + consumed]);
                consumed += 1;
            }
            let active = conds.last().is_none_or(|c| c.active);
            let indent = line.len() - trimmed.len();
            let replacement = pp.directive(&directive, indent, line_no, active, &mut conds);
            for k in 0..consumed {
                if i + k > 0 {
                    out.push('\n');
                }
                map.start_line(out.len());
                if k == 0 {
                    if let Some(r) = &replacement {
                        map.expansion(0, indent);
                        out.push_str(r);
                    }
                }
            }
            i += consumed;
            continue;
        }
        if i > 0 {
            out.push('\n');
        }
        map.start_line(out.len());
        if conds.last().is_none_or(|c| c.active) {
            let line_start = out.len();
            pp.expand_line(line, line_no, &mut out, line_start, &mut map);
        }
        i += 1;
    }
    if let Some(c) = conds.last() {
        pp.diagnostics.push(Diagnostic::error(
            Span::point(c.line, 1),
            "unterminated conditional directive (missing #endif)",
        ));
    }
    Preprocessed {
        text: out,
        map,
        diagnostics: pp.diagnostics,
    }
}

/// Replaces comments by spaces, byte for byte, keeping newlines; string and character literals
/// are left alone.
fn strip_comments(src: &str) -> Vec<String> {
    let bytes = src.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let mut in_block = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_block {
            if c == b'*' && bytes.get(i + 1) == Some(&b'/') {
                out.extend_from_slice(b"  ");
                i += 2;
                in_block = false;
            } else {
                out.push(if c == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            continue;
        }
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                in_block = true;
                out.extend_from_slice(b"  ");
                i += 2;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out.push(b' ');
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let quote = c;
                out.push(c);
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' && i + 1 < bytes.len() && bytes[i + 1] != b'\n' {
                        out.push(bytes[i]);
                        i += 1;
                    }
                    out.push(bytes[i]);
                    i += 1;
                }
                if i < bytes.len() && bytes[i] == quote {
                    out.push(quote);
                    i += 1;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes, and whole multi-byte characters are either
    // copied or replaced byte-wise inside comments, so the result is valid UTF-8 except where a
    // comment covered part of a multi-byte character, which cannot happen.
    let s = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    s.split('\n').map(str::to_string).collect()
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn predefined() -> BTreeMap<String, Macro> {
    let mut m = BTreeMap::new();
    for (k, v) in [
        ("__STDC__", "1"),
        ("__STDC_VERSION__", "201112L"),
        ("__ILP32__", "1"),
    ] {
        m.insert(
            k.to_string(),
            Macro {
                params: None,
                body: v.to_string(),
            },
        );
    }
    m
}

struct Pp {
    macros: BTreeMap<String, Macro>,
    included: BTreeSet<String>,
    diagnostics: Vec<Diagnostic>,
}

impl Pp {
    fn error(&mut self, line: u32, col: usize, msg: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(Span::point(line, col as u32 + 1), msg));
    }

    /// Handles one directive; returns text to put on the directive's line, if any.
    fn directive(
        &mut self,
        text: &str,
        indent: usize,
        line: u32,
        active: bool,
        conds: &mut Vec<Cond>,
    ) -> Option<String> {
        let body = text.trim_start()[1..].trim_start();
        let name_len = body.bytes().take_while(|c| is_ident_char(*c)).count();
        let (name, rest) = body.split_at(name_len);
        let rest = rest.trim();
        match name {
            "if" | "ifdef" | "ifndef" => {
                let cond = if !active {
                    false
                } else {
                    match name {
                        "ifdef" => self.macros.contains_key(first_ident(rest)),
                        "ifndef" => !self.macros.contains_key(first_ident(rest)),
                        _ => self.eval_condition(rest, line, indent),
                    }
                };
                conds.push(Cond {
                    active: active && cond,
                    taken: cond,
                    parent: active,
                    line,
                });
                None
            }
            "elif" | "else" => {
                let Some(top) = conds.last() else {
                    self.error(line, indent, format!("#{name} without #if"));
                    return None;
                };
                let (parent, taken) = (top.parent, top.taken);
                let cond = if !parent || taken {
                    false
                } else if name == "elif" {
                    self.eval_condition(rest, line, indent)
                } else {
                    true
                };
                if let Some(top) = conds.last_mut() {
                    top.active = parent && cond;
                    top.taken |= cond;
                }
                None
            }
            "endif" => {
                if conds.pop().is_none() {
                    self.error(line, indent, "#endif without #if");
                }
                None
            }
            _ if !active => None,
            "" => None, // null directive, or a line marker `# 12 "file.c"`
            _ if name.bytes().all(|c| c.is_ascii_digit()) => None,
            "line" | "pragma" | "ident" => None,
            "define" => {
                self.define(rest, line, indent);
                None
            }
            "undef" => {
                self.macros.remove(first_ident(rest));
                None
            }
            "include" => self.include(rest, line, indent),
            "error" => {
                self.error(line, indent, format!("#error {rest}"));
                None
            }
            "warning" => {
                self.diagnostics.push(Diagnostic::warning(
                    Span::point(line, indent as u32 + 1),
                    format!("#warning {rest}"),
                ));
                None
            }
            other => {
                self.error(
                    line,
                    indent,
                    format!("unsupported preprocessor directive '#{other}'"),
                );
                None
            }
        }
    }

    fn include(&mut self, rest: &str, line: u32, indent: usize) -> Option<String> {
        if let Some(inner) = rest
            .strip_prefix('<')
            .and_then(|r| r.split_once('>'))
            .map(|(h, _)| h)
        {
            let header = inner.trim();
            match header_prelude(header) {
                Some(prelude) => {
                    if !self.included.insert(header.to_string()) {
                        return None;
                    }
                    for (k, v) in header_macros(header) {
                        self.macros.insert(
                            k.to_string(),
                            Macro {
                                params: None,
                                body: v.to_string(),
                            },
                        );
                    }
                    Some(prelude.to_string())
                }
                None => {
                    self.diagnostics.push(Diagnostic::warning(
                        Span::point(line, indent as u32 + 1),
                        format!("header <{header}> is not built in; its declarations are unknown"),
                    ));
                    None
                }
            }
        } else {
            self.error(
                line,
                indent,
                format!(
                    "cannot include {}: only standard headers (<...>) are built in",
                    rest.trim()
                ),
            );
            None
        }
    }

    fn define(&mut self, rest: &str, line: u32, indent: usize) {
        let bytes = rest.as_bytes();
        let n = bytes.iter().take_while(|c| is_ident_char(**c)).count();
        if n == 0 || !is_ident_start(bytes[0]) {
            self.error(line, indent, "macro name missing in #define");
            return;
        }
        let name = rest[..n].to_string();
        let after = &rest[n..];
        let mac = if let Some(params) = after.strip_prefix('(') {
            let Some((plist, body)) = params.split_once(')') else {
                self.error(
                    line,
                    indent,
                    format!("missing ')' in parameter list of macro '{name}'"),
                );
                return;
            };
            let params: Vec<String> = if plist.trim().is_empty() {
                Vec::new()
            } else {
                plist.split(',').map(|p| p.trim().to_string()).collect()
            };
            if params
                .iter()
                .any(|p| p == "..." || p.is_empty() || !p.bytes().all(is_ident_char))
            {
                self.error(
                    line,
                    indent,
                    format!("unsupported parameter list in macro '{name}'"),
                );
                return;
            }
            if body.contains('#') {
                self.error(
                    line,
                    indent,
                    format!("macro '{name}' uses '#' or '##', which is not supported"),
                );
                return;
            }
            Macro {
                params: Some(params),
                body: body.trim().to_string(),
            }
        } else {
            Macro {
                params: None,
                body: after.trim().to_string(),
            }
        };
        self.macros.insert(name, mac);
    }

    fn eval_condition(&mut self, expr: &str, line: u32, indent: usize) -> bool {
        // Replace `defined X` and `defined(X)` first, then expand macros.
        let mut replaced = String::new();
        let bytes = expr.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if is_ident_start(bytes[i]) {
                let s = i;
                while i < bytes.len() && is_ident_char(bytes[i]) {
                    i += 1;
                }
                let word = &expr[s..i];
                if word == "defined" {
                    let rest = expr[i..].trim_start();
                    let (name, consumed) = if let Some(r) = rest.strip_prefix('(') {
                        let r = r.trim_start();
                        let n = first_ident(r);
                        let after = r[n.len()..].trim_start();
                        (
                            n,
                            expr.len() - after.strip_prefix(')').unwrap_or(after).len(),
                        )
                    } else {
                        let n = first_ident(rest);
                        (n, expr.len() - rest.len() + n.len())
                    };
                    replaced.push_str(if self.macros.contains_key(name) {
                        " 1 "
                    } else {
                        " 0 "
                    });
                    i = consumed;
                } else {
                    replaced.push_str(word);
                }
            } else {
                replaced.push(bytes[i] as char);
                i += 1;
            }
        }
        let mut expanded = String::new();
        let mut scratch = SourceMap::default();
        self.expand_text(
            &replaced,
            line,
            &mut expanded,
            0,
            &mut scratch,
            &mut BTreeSet::new(),
            0,
        );
        match cond_expr::eval(&expanded) {
            Ok(v) => v != 0,
            Err(msg) => {
                self.error(
                    line,
                    indent,
                    format!("cannot evaluate #if condition: {msg}"),
                );
                false
            }
        }
    }

    fn expand_line(
        &mut self,
        line: &str,
        line_no: u32,
        out: &mut String,
        line_start: usize,
        map: &mut SourceMap,
    ) {
        self.expand_text(line, line_no, out, line_start, map, &mut BTreeSet::new(), 0);
    }

    /// Copies `text` to `out`, expanding macros. Segments are recorded in `map` only at depth 0
    /// (the user's own line); expansions map to the position of the macro's name.
    #[allow(clippy::too_many_arguments)]
    fn expand_text(
        &mut self,
        text: &str,
        line_no: u32,
        out: &mut String,
        line_start: usize,
        map: &mut SourceMap,
        disabled: &mut BTreeSet<String>,
        depth: usize,
    ) {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut copy_from = 0; // start of the pending verbatim run
        let flush = |out: &mut String, map: &mut SourceMap, from: usize, to: usize| {
            if from < to {
                if depth == 0 {
                    map.copy(out.len() - line_start, from);
                }
                out.push_str(&text[from..to]);
            }
        };
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'"' || c == b'\'' {
                i = skip_literal(bytes, i);
                continue;
            }
            if c.is_ascii_digit() {
                while i < bytes.len() && (is_ident_char(bytes[i]) || bytes[i] == b'.') {
                    i += 1;
                }
                continue;
            }
            if !is_ident_start(c) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_ident_char(bytes[i]) {
                i += 1;
            }
            let word = &text[start..i];
            let Some(mac) = self.macros.get(word).cloned() else {
                continue;
            };
            if disabled.contains(word) {
                continue;
            }
            if depth >= MAX_EXPANSION_DEPTH || out.len() - line_start > MAX_LINE_LEN {
                self.error(
                    line_no,
                    start,
                    format!("macro expansion of '{word}' is too deep or too long"),
                );
                continue;
            }
            let replacement = match &mac.params {
                None => mac.body.clone(),
                Some(params) => {
                    let mut j = i;
                    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j >= bytes.len() || bytes[j] != b'(' {
                        continue; // a function-like macro name without arguments is not expanded
                    }
                    let Some((args, end)) = split_args(text, j) else {
                        self.error(
                            line_no,
                            start,
                            format!("arguments of macro '{word}' must close on the same line"),
                        );
                        continue;
                    };
                    let args = if params.is_empty() && args.len() == 1 && args[0].trim().is_empty()
                    {
                        Vec::new()
                    } else {
                        args
                    };
                    if args.len() != params.len() {
                        self.error(
                            line_no,
                            start,
                            format!(
                                "macro '{word}' takes {} argument(s), {} given",
                                params.len(),
                                args.len()
                            ),
                        );
                        continue;
                    }
                    i = end;
                    // Arguments are fully expanded before substitution (C11 6.10.3.1).
                    let mut scratch = SourceMap::default();
                    let expanded_args: Vec<String> = args
                        .iter()
                        .map(|a| {
                            let mut s = String::new();
                            self.expand_text(
                                a,
                                line_no,
                                &mut s,
                                0,
                                &mut scratch,
                                disabled,
                                depth + 1,
                            );
                            s
                        })
                        .collect();
                    substitute(&mac.body, params, &expanded_args)
                }
            };
            flush(out, map, copy_from, start);
            if depth == 0 {
                map.expansion(out.len() - line_start, start);
            }
            out.push(' ');
            disabled.insert(word.to_string());
            let mut scratch = SourceMap::default();
            self.expand_text(
                &replacement,
                line_no,
                out,
                line_start,
                &mut scratch,
                disabled,
                depth + 1,
            );
            disabled.remove(word);
            out.push(' ');
            copy_from = i;
        }
        flush(out, map, copy_from, bytes.len());
    }
}

fn first_ident(s: &str) -> &str {
    let s = s.trim_start();
    let n = s.bytes().take_while(|c| is_ident_char(*c)).count();
    &s[..n]
}

fn skip_literal(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() && bytes[i] != quote {
        if bytes[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(bytes.len())
}

/// Splits the parenthesised argument list starting at `open` (a `(`); returns the arguments and
/// the index after the closing parenthesis.
fn split_args(text: &str, open: usize) -> Option<(Vec<String>, usize)> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut cur = open + 1;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                i = skip_literal(bytes, i);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    args.push(text[cur..i].to_string());
                    return Some((args, i + 1));
                }
            }
            b',' if depth == 1 => {
                args.push(text[cur..i].to_string());
                cur = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn substitute(body: &str, params: &[String], args: &[String]) -> String {
    let bytes = body.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'"' || bytes[i] == b'\'' {
            let end = skip_literal(bytes, i);
            out.push_str(&body[i..end]);
            i = end;
        } else if is_ident_start(bytes[i]) {
            let s = i;
            while i < bytes.len() && is_ident_char(bytes[i]) {
                i += 1;
            }
            let w = &body[s..i];
            match params.iter().position(|p| p == w) {
                Some(k) => {
                    out.push(' ');
                    out.push_str(args[k].trim());
                    out.push(' ');
                }
                None => out.push_str(w),
            }
        } else {
            let ch = body[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Evaluation of `#if` conditions over integers (C11 6.10.1), after `defined` and macros were
/// replaced; remaining identifiers are 0.
mod cond_expr {
    #[derive(Clone, Debug, PartialEq)]
    enum Tok {
        Num(i64),
        Op(&'static str),
    }

    const OPS: [&str; 23] = [
        "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "!", "~", "-", "+", "*", "/",
        "%", "<", ">", "&", "^", "|", "?",
    ];

    fn lex(s: &str) -> Result<Vec<Tok>, String> {
        let b = s.as_bytes();
        let mut toks = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if c.is_ascii_digit() {
                let st = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                let lit = s[st..i].trim_end_matches(['u', 'U', 'l', 'L']);
                let v = if let Some(h) = lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                    i64::from_str_radix(h, 16)
                } else if lit.len() > 1 && lit.starts_with('0') {
                    i64::from_str_radix(&lit[1..], 8)
                } else {
                    lit.parse()
                };
                toks.push(Tok::Num(
                    v.map_err(|_| format!("bad number '{}'", &s[st..i]))?,
                ));
            } else if c.is_ascii_alphabetic() || c == b'_' {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                toks.push(Tok::Num(0));
            } else if c == b':' {
                toks.push(Tok::Op(":"));
                i += 1;
            } else {
                let op = OPS
                    .iter()
                    .find(|op| s[i..].starts_with(**op))
                    .ok_or_else(|| {
                        format!(
                            "unexpected character '{}'",
                            s[i..].chars().next().unwrap_or(' ')
                        )
                    })?;
                toks.push(Tok::Op(op));
                i += op.len();
            }
        }
        Ok(toks)
    }

    struct P {
        toks: Vec<Tok>,
        pos: usize,
    }

    fn prec(op: &str) -> Option<u8> {
        Some(match op {
            "*" | "/" | "%" => 10,
            "+" | "-" => 9,
            "<<" | ">>" => 8,
            "<" | ">" | "<=" | ">=" => 7,
            "==" | "!=" => 6,
            "&" => 5,
            "^" => 4,
            "|" => 3,
            "&&" => 2,
            "||" => 1,
            _ => return None,
        })
    }

    impl P {
        fn peek(&self) -> Option<&Tok> {
            self.toks.get(self.pos)
        }

        fn expr(&mut self, depth: u32) -> Result<i64, String> {
            if depth > 200 {
                return Err("expression nested too deeply".into());
            }
            let c = self.binary(0, depth)?;
            if self.peek() == Some(&Tok::Op("?")) {
                self.pos += 1;
                let a = self.expr(depth + 1)?;
                if self.peek() != Some(&Tok::Op(":")) {
                    return Err("expected ':'".into());
                }
                self.pos += 1;
                let b = self.expr(depth + 1)?;
                return Ok(if c != 0 { a } else { b });
            }
            Ok(c)
        }

        fn binary(&mut self, min: u8, depth: u32) -> Result<i64, String> {
            let mut lhs = self.unary(depth)?;
            while let Some(Tok::Op(op)) = self.peek().cloned() {
                let Some(p) = prec(op) else { break };
                if p < min {
                    break;
                }
                self.pos += 1;
                let rhs = self.binary(p + 1, depth + 1)?;
                lhs = match op {
                    "*" => lhs.wrapping_mul(rhs),
                    "/" | "%" if rhs == 0 => return Err("division by zero".into()),
                    "/" => lhs.wrapping_div(rhs),
                    "%" => lhs.wrapping_rem(rhs),
                    "+" => lhs.wrapping_add(rhs),
                    "-" => lhs.wrapping_sub(rhs),
                    "<<" => lhs.wrapping_shl(rhs as u32),
                    ">>" => lhs.wrapping_shr(rhs as u32),
                    "<" => (lhs < rhs) as i64,
                    ">" => (lhs > rhs) as i64,
                    "<=" => (lhs <= rhs) as i64,
                    ">=" => (lhs >= rhs) as i64,
                    "==" => (lhs == rhs) as i64,
                    "!=" => (lhs != rhs) as i64,
                    "&" => lhs & rhs,
                    "^" => lhs ^ rhs,
                    "|" => lhs | rhs,
                    "&&" => (lhs != 0 && rhs != 0) as i64,
                    _ => (lhs != 0 || rhs != 0) as i64,
                };
            }
            Ok(lhs)
        }

        fn unary(&mut self, depth: u32) -> Result<i64, String> {
            if depth > 200 {
                return Err("expression nested too deeply".into());
            }
            match self.peek().cloned() {
                Some(Tok::Num(v)) => {
                    self.pos += 1;
                    Ok(v)
                }
                Some(Tok::Op("(")) => {
                    self.pos += 1;
                    let v = self.expr(depth + 1)?;
                    if self.peek() != Some(&Tok::Op(")")) {
                        return Err("expected ')'".into());
                    }
                    self.pos += 1;
                    Ok(v)
                }
                Some(Tok::Op(op @ ("!" | "~" | "-" | "+"))) => {
                    self.pos += 1;
                    let v = self.unary(depth + 1)?;
                    Ok(match op {
                        "!" => (v == 0) as i64,
                        "~" => !v,
                        "-" => v.wrapping_neg(),
                        _ => v,
                    })
                }
                _ => Err("expected an expression".into()),
            }
        }
    }

    pub fn eval(s: &str) -> Result<i64, String> {
        let mut p = P {
            toks: lex(s)?,
            pos: 0,
        };
        let v = p.expr(0)?;
        if p.pos != p.toks.len() {
            return Err("unexpected tokens at the end".into());
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_lines_and_expands_macros() {
        let p = preprocess(
            "#include <limits.h>\n#define N 10 // ten\nint x = N; /* c\n */ int y = INT_MAX;\n",
        );
        let lines: Vec<&str> = p.text.split('\n').collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[2].contains("int x =  10 ;"), "{}", lines[2]);
        assert!(lines[3].contains("int y =  2147483647 ;"), "{}", lines[3]);
        assert!(p.diagnostics.is_empty());
        // `x` sits at column 5 of line 3 in the original.
        let off = p.text.find("x =").unwrap();
        assert_eq!(p.map.position(off), (3, 5));
        // A position after the expansion maps past the macro name in the original.
        let semi = p.text[off..].find(';').unwrap() + off;
        assert_eq!(p.map.position(semi), (3, 10));
    }

    #[test]
    fn function_like_macros_and_conditionals() {
        let src = "#define MAX(a,b) ((a)>(b)?(a):(b))\n#if defined(MAX) && 1\nint m = MAX(1, 2);\n#else\nint m = 0;\n#endif\n";
        let p = preprocess(src);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        assert!(p.text.contains("(( 1 )>( 2 )?( 1 ):( 2 ))"), "{}", p.text);
        assert!(!p.text.contains("int m = 0"));
    }

    #[test]
    fn local_include_is_an_error() {
        let p = preprocess("#include \"foo.h\"\nint main(){}\n");
        assert_eq!(p.diagnostics.len(), 1);
        assert_eq!(p.diagnostics[0].span.start_line, 1);
    }

    #[test]
    fn recursive_macro_terminates() {
        let p = preprocess("#define A B\n#define B A\nint A;\n");
        assert_eq!(
            p.text.split_whitespace().collect::<Vec<_>>(),
            ["int", "A", ";"]
        );
    }
}
