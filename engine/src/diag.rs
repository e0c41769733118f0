//! Source positions and diagnostics (`FILE:LINE:COL: error: MESSAGE`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A source range in the file the user gave: 1-based lines, 1-based columns counted in
/// characters. `end` is inclusive of the last character's column + 1 (half-open).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start_line: u32,
    pub start_col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl Span {
    pub fn point(line: u32, col: u32) -> Span {
        Span {
            start_line: line,
            start_col: col,
            end_line: line,
            end_col: col + 1,
        }
    }

    /// The smallest range covering both.
    pub fn join(self, other: Span) -> Span {
        if self == Span::default() {
            return other;
        }
        if other == Span::default() {
            return self;
        }
        let (sl, sc) = (self.start_line, self.start_col).min((other.start_line, other.start_col));
        let (el, ec) = (self.end_line, self.end_col).max((other.end_line, other.end_col));
        Span {
            start_line: sl,
            start_col: sc,
            end_line: el,
            end_col: ec,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            span,
            message: message.into(),
        }
    }

    /// `FILE:LINE:COL: error: MESSAGE`, the format compilers use.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{}", self.render_position())
    }

    /// `LINE:COL: error: MESSAGE`: [`Self::render`] without the file (the editor's list).
    pub fn render_position(&self) -> String {
        format!(
            "{}:{}: {}: {}",
            self.span.start_line,
            self.span.start_col,
            self.severity.name(),
            self.message
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render("<input>"))
    }
}

/// One copied or expanded piece of an output line of the preprocessor.
#[derive(Clone, Debug)]
struct Segment {
    /// Byte column in the output line where the piece starts.
    out_start: usize,
    /// Byte column in the original line it comes from.
    orig_start: usize,
    /// `true`: byte-for-byte copy; `false`: a macro expansion, mapped to `orig_start` as a whole.
    verbatim: bool,
}

/// Maps byte offsets in the preprocessed text back to positions in the original file. The
/// preprocessor keeps the line structure, so only columns need mapping.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    original_lines: Vec<String>,
    out_line_starts: Vec<usize>,
    segments: Vec<Vec<Segment>>,
}

impl SourceMap {
    pub(crate) fn new(original: &str) -> SourceMap {
        SourceMap {
            original_lines: original.split('\n').map(|l| l.to_string()).collect(),
            out_line_starts: Vec::new(),
            segments: Vec::new(),
        }
    }

    /// Registers the start of the next output line (lines are pushed in order).
    pub(crate) fn start_line(&mut self, out_offset: usize) {
        self.out_line_starts.push(out_offset);
        self.segments.push(Vec::new());
    }

    pub(crate) fn copy(&mut self, out_col: usize, orig_col: usize) {
        if let Some(segs) = self.segments.last_mut() {
            segs.push(Segment {
                out_start: out_col,
                orig_start: orig_col,
                verbatim: true,
            });
        }
    }

    pub(crate) fn expansion(&mut self, out_col: usize, orig_col: usize) {
        if let Some(segs) = self.segments.last_mut() {
            segs.push(Segment {
                out_start: out_col,
                orig_start: orig_col,
                verbatim: false,
            });
        }
    }

    /// Records that `len` bytes were inserted into the preprocessed text at byte `offset`
    /// (the front end's own text, such as an implicit `int`): they map to the original
    /// position of what follows them.
    pub(crate) fn insert(&mut self, offset: usize, len: usize) {
        if self.out_line_starts.is_empty() {
            return;
        }
        let line_idx = match self.out_line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let out_col = offset - self.out_line_starts[line_idx];
        let segs = &mut self.segments[line_idx];
        let covering = segs.iter().rev().find(|s| s.out_start <= out_col).cloned();
        let orig = match &covering {
            Some(s) if s.verbatim => s.orig_start + (out_col - s.out_start),
            Some(s) => s.orig_start,
            None => out_col,
        };
        for s in segs.iter_mut().filter(|s| s.out_start >= out_col) {
            s.out_start += len;
        }
        let at = segs.partition_point(|s| s.out_start < out_col);
        let resume = Segment {
            out_start: out_col + len,
            orig_start: orig,
            verbatim: covering.as_ref().is_none_or(|s| s.verbatim),
        };
        let inserted = Segment {
            out_start: out_col,
            orig_start: orig,
            verbatim: false,
        };
        segs.insert(at, resume);
        segs.insert(at, inserted);
        for start in &mut self.out_line_starts[line_idx + 1..] {
            *start += len;
        }
    }

    /// 1-based (line, column in characters) of a byte offset of the preprocessed text.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        if self.out_line_starts.is_empty() {
            return (1, 1);
        }
        let line_idx = match self.out_line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let out_col = offset - self.out_line_starts[line_idx];
        let segs = &self.segments[line_idx];
        let orig_byte_col = match segs.iter().rev().find(|s| s.out_start <= out_col) {
            Some(s) if s.verbatim => s.orig_start + (out_col - s.out_start),
            Some(s) => s.orig_start,
            None => out_col,
        };
        let text = self
            .original_lines
            .get(line_idx)
            .map(String::as_str)
            .unwrap_or("");
        let byte_col = orig_byte_col.min(text.len());
        let mut char_col = text
            .char_indices()
            .take_while(|(i, _)| *i < byte_col)
            .count();
        if orig_byte_col > text.len() {
            char_col += orig_byte_col - text.len();
        }
        (line_idx as u32 + 1, char_col as u32 + 1)
    }

    /// The span of a byte range `[start, end)` of the preprocessed text.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let (sl, sc) = self.position(start);
        let (el, ec) = self.position(end.max(start + 1) - 1);
        Span {
            start_line: sl,
            start_col: sc,
            end_line: el,
            end_col: ec + 1,
        }
    }

    pub fn original_line(&self, line: u32) -> &str {
        self.original_lines
            .get(line.saturating_sub(1) as usize)
            .map(String::as_str)
            .unwrap_or("")
    }
}
