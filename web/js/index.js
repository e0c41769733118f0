// The JavaScript half of the CPA Playground page, bundled by esbuild into one script that
// defines the global `CpaPage` (see web/src/browser/js.rs for the Rust side of this API).
// Everything here is presentation: the engine never calls into it.

import { EditorView, basicSetup } from 'codemirror';
import { Annotation, EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, GutterMarker, gutter } from '@codemirror/view';
import { RangeSet } from '@codemirror/state';
import { cpp } from '@codemirror/lang-cpp';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { lintGutter, setDiagnostics as cmSetDiagnostics } from '@codemirror/lint';
import { instance as vizInstance } from '@viz-js/viz';

// Marks transactions made by setText, so onChange reports only the user's own edits.
const external = Annotation.define();

// Colours come from CSS variables so the page's light/dark themes apply to the editor too.
const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--editor-bg)', height: '100%' },
  '.cm-content': { caretColor: 'var(--fg)', fontFamily: 'var(--mono)' },
  '.cm-gutters': { backgroundColor: 'var(--editor-gutter)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--editor-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--editor-active)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-cpa-highlight': { backgroundColor: 'var(--line-selected)', boxShadow: 'inset 3px 0 0 var(--selected)' },
  '.cm-cpa-current': { backgroundColor: 'var(--line-highlight)' },
  '.cm-cpa-covered': { backgroundColor: 'var(--line-covered)' },
  '.cm-cpa-coverage-gutter': { width: '6px' },
  '.cm-cpa-coverage-mark': { width: '4px', height: '100%', backgroundColor: 'var(--covered)', borderRadius: '1px' },
});

// Coverage (lines the ARG has reached: a green gutter mark and a faint background) and the
// current event's lines (yellow), set together by setLineMarks.
const setMarks = StateEffect.define();
class CoverageMarker extends GutterMarker {
  toDOM() {
    const d = document.createElement('div');
    d.className = 'cm-cpa-coverage-mark';
    return d;
  }
}
const coverageMarker = new CoverageMarker();
const marksField = StateField.define({
  create: () => ({ deco: Decoration.none, gutter: RangeSet.empty }),
  update(value, tr) {
    let { deco, gutter: g } = value;
    deco = deco.map(tr.changes);
    g = g.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const doc = tr.state.doc;
      const { covered, current } = e.value;
      const lines = new Map();
      for (const l of covered) if (l >= 1 && l <= doc.lines) lines.set(l, 'cm-cpa-covered');
      for (const l of current) if (l >= 1 && l <= doc.lines) lines.set(l, 'cm-cpa-current');
      const sorted = [...lines.keys()].sort((a, b) => a - b);
      deco = Decoration.set(sorted.map((l) => Decoration.line({ class: lines.get(l) }).range(doc.line(l).from)));
      g = RangeSet.of(covered.filter((l) => l >= 1 && l <= doc.lines).sort((a, b) => a - b)
        .map((l) => coverageMarker.range(doc.line(l).from)));
    }
    return { deco, gutter: g };
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});
const coverageGutter = gutter({
  class: 'cm-cpa-coverage-gutter',
  markers: (v) => v.state.field(marksField).gutter,
});

const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.modifier], color: 'var(--syn-keyword)' },
  { tag: [tags.typeName, tags.standard(tags.typeName)], color: 'var(--syn-type)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--syn-number)' },
  { tag: [tags.string, tags.character], color: 'var(--syn-string)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [tags.processingInstruction, tags.meta], color: 'var(--syn-meta)' },
  { tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName))], color: 'var(--syn-function)' },
  { tag: tags.labelName, color: 'var(--syn-meta)' },
]);

// Source lines selected from a graph (e.g. a clicked CFA edge).
const setHighlight = StateEffect.define();
const highlightField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setHighlight)) continue;
      const { first, last } = e.value;
      if (first < 1) { deco = Decoration.none; continue; }
      const doc = tr.state.doc;
      const ranges = [];
      for (let l = Math.max(1, first); l <= Math.min(last, doc.lines); l++) {
        ranges.push(Decoration.line({ class: 'cm-cpa-highlight' }).range(doc.line(l).from));
      }
      deco = Decoration.set(ranges);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Creates a C editor inside `parent`; `onChange(text)` is called after each user edit.
 *  `readOnly`: an embedded playground shows the program without letting it be changed. */
export function createEditor(parent, text, onChange, readOnly = false) {
  return new EditorView({
    parent,
    doc: text,
    extensions: [
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      basicSetup,
      cpp(),
      syntaxHighlighting(highlight),
      theme,
      // Long lines wrap: the editor column is narrow on a projector in presentation mode
      // (20 px type) and on a phone, and a cut-off line would hide code without a sign.
      EditorView.lineWrapping,
      lintGutter(),
      coverageGutter,
      marksField,
      highlightField,
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.some((t) => t.annotation(external))) {
          onChange(u.state.doc.toString());
        }
      }),
    ],
  });
}

/** Replaces the whole text without reporting it through onChange. */
export function setText(view, text) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    annotations: external.of(true),
    selection: { anchor: 0 },
    scrollIntoView: true,
  });
}

export function getText(view) {
  return view.state.doc.toString();
}

// The engine counts columns in characters (code points); CodeMirror counts UTF-16 units.
function offsetOf(doc, line, col) {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const chars = Array.from(l.text);
  const k = Math.min(Math.max(col - 1, 0), chars.length);
  return l.from + chars.slice(0, k).join('').length;
}

/**
 * Shows diagnostics inline: `[{startLine, startCol, endLine, endCol, severity, message}]`,
 * 1-based lines and columns (characters), end exclusive.
 */
export function setDiagnostics(view, diagnostics) {
  const doc = view.state.doc;
  const list = diagnostics.map((d) => {
    let from = offsetOf(doc, d.startLine, d.startCol);
    let to = offsetOf(doc, d.endLine || d.startLine, d.endCol || d.startCol + 1);
    if (to < from) to = from;
    // An empty range at a line end would be invisible: widen it to the character before.
    if (to === from && from > doc.lineAt(from).from && from === doc.lineAt(from).to) from -= 1;
    else if (to === from && to < doc.lineAt(from).to) to += 1;
    return { from, to, severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message };
  });
  view.dispatch(cmSetDiagnostics(view.state, list));
}

/** Highlights lines `first..=last` (1-based) and scrolls them into view; `0, 0` clears. */
export function highlightLines(view, first, last) {
  const effects = [setHighlight.of({ first, last })];
  if (first >= 1 && first <= view.state.doc.lines) {
    effects.push(EditorView.scrollIntoView(view.state.doc.line(first).from, { y: 'center' }));
  }
  view.dispatch({ effects });
}

/**
 * Marks the lines the ARG has reached (`covered`, 1-based, deduplicated by the caller) and the
 * lines of the current event (`current`), replacing earlier marks; scrolls the first current
 * line into view if it is off screen.
 */
export function setLineMarks(view, covered, current) {
  const effects = [setMarks.of({ covered: Array.from(covered), current: Array.from(current) })];
  const first = current.length ? current[0] : 0;
  if (first >= 1 && first <= view.state.doc.lines) {
    effects.push(EditorView.scrollIntoView(view.state.doc.line(first).from, { y: 'nearest' }));
  }
  view.dispatch({ effects });
}

export { createArgView, updateArgView, argViewCommand, layoutArg } from './arg.js';

let viz = null;
/** Lays out a DOT graph with Graphviz; resolves to SVG text. */
export async function renderDot(dot) {
  if (!viz) viz = vizInstance();
  let result;
  try {
    result = (await viz).render(dot, { format: 'svg', engine: 'dot' });
  } catch (trap) {
    // A trap inside Graphviz's wasm leaves that instance corrupt: start a fresh one.
    viz = null;
    throw trap;
  }
  if (result.status !== 'success') {
    throw new Error(result.errors.map((e) => e.message).join('\n') || 'Graphviz failed');
  }
  return result.output;
}
