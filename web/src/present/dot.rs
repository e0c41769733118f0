//! Graphviz DOT for the page's graph views. Unlike the engine's `Graph::to_dot` (the export
//! format), this carries CSS classes (`class=`) for theming and step highlights, tooltips with
//! the full operation, and shortened labels, because summary labels grow long.

use crate::protocol::{GraphEdge, GraphNode};
use std::fmt::Write;

// Fonts with metrics built into Graphviz, so it sizes labels right; the page's CSS then
// draws them in its own fonts.

/// Longest line of an edge label before it wraps, and most lines shown.
const LABEL_WIDTH: usize = 36;
const LABEL_LINES: usize = 4;

/// `s` inside a DOT string: quotes and backslashes escaped, line breaks as spaces.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Wraps at `; ` (where summary operations compose) and spaces, keeping at most
/// `LABEL_LINES` lines; the tooltip carries the full text.
pub fn wrap_label(label: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in label.split(' ') {
        let fits = cur.chars().count() + 1 + word.chars().count() <= LABEL_WIDTH;
        if !cur.is_empty() && !fits {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    for l in lines.iter_mut() {
        if l.chars().count() > LABEL_WIDTH {
            *l = l.chars().take(LABEL_WIDTH - 1).collect::<String>() + "…";
        }
    }
    if lines.len() > LABEL_LINES {
        lines.truncate(LABEL_LINES);
        lines[LABEL_LINES - 1].push_str(" …");
    }
    lines
}

fn lines_text(lines: [u32; 2]) -> String {
    match lines {
        [0, _] => "no source line".to_string(),
        [a, b] if a == b => format!("line {a}"),
        [a, b] => format!("lines {a}–{b}"),
    }
}

/// The DOT of a graph given as its nodes and edges; `node_class` and `edge_class` give extra
/// CSS classes (space-separated, may be empty) by id.
pub fn graph_dot(
    name: &str,
    nodes: &[&GraphNode],
    edges: &[&GraphEdge],
    node_class: impl Fn(u32) -> String,
    edge_class: impl Fn(u32) -> String,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "digraph \"{}\" {{", escape(name));
    s.push_str("  graph [bgcolor=\"transparent\" fontname=\"Helvetica\" fontsize=11 nodesep=0.3 ranksep=0.35];\n");
    s.push_str("  node [shape=circle fontname=\"Courier\" fontsize=10 width=0.4 height=0.4 margin=0.02];\n");
    s.push_str("  edge [fontname=\"Courier\" fontsize=9 arrowsize=0.7];\n");
    let mut functions: Vec<&str> = Vec::new();
    for n in nodes {
        if !functions.contains(&n.function.as_str()) {
            functions.push(&n.function);
        }
    }
    for (i, f) in functions.iter().enumerate() {
        let _ = writeln!(
            s,
            "  subgraph cluster_{i} {{\n    label=\"{}\" class=\"function\";",
            escape(f)
        );
        for n in nodes.iter().filter(|n| n.function == *f) {
            let mut classes = vec![format!("kind-{}", n.kind)];
            if n.loop_head {
                classes.push("loop-head".into());
            }
            let extra = node_class(n.id);
            if !extra.is_empty() {
                classes.push(extra);
            }
            let shape = match n.kind.as_str() {
                "error" => " shape=doublecircle",
                "entry" | "exit" => " shape=box style=rounded",
                "termination" => " shape=octagon",
                _ => "",
            };
            let _ = writeln!(
                s,
                "    n{id} [id=\"n{id}\" label=\"N{id}\" class=\"{}\" tooltip=\"N{id}: {}, line {}{}\"{shape}];",
                classes.join(" "),
                escape(&n.function),
                n.line,
                if n.loop_head { ", loop head" } else { "" },
                id = n.id,
            );
        }
        s.push_str("  }\n");
    }
    for e in edges {
        // Lines are joined with `\n`: left-justified `\l` lines make viz.js 3.31's Graphviz
        // trap ("table index is out of bounds") after a few layouts.
        let label = wrap_label(&e.label)
            .iter()
            .map(|l| escape(l))
            .collect::<Vec<_>>()
            .join("\\n");
        let mut classes = vec![format!("kind-{}", e.kind)];
        let extra = edge_class(e.id);
        if !extra.is_empty() {
            classes.push(extra);
        }
        let style = match e.kind.as_str() {
            "call" | "return" => " style=dashed",
            _ => "",
        };
        let _ = writeln!(
            s,
            "  n{} -> n{} [id=\"e{}\" label=\"{}\" class=\"{}\" tooltip=\"{} ({})\"{}];",
            e.from,
            e.to,
            e.id,
            label,
            classes.join(" "),
            escape(&e.label),
            lines_text(e.lines),
            style
        );
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::tests::figure1;

    #[test]
    fn wraps_and_truncates() {
        assert_eq!(wrap_label("x = 1"), vec!["x = 1"]);
        let long = "a = 1; b = 2; c = 3; d = 4; e = 5; f = 6; g = 7; h = 8; i = 9; j = 10; k = 11; l = 12; m = 13; n = 14; o = 15; p = 16; q = 17; r = 18; s = 19; t = 20; u = 21";
        let w = wrap_label(long);
        assert_eq!(w.len(), LABEL_LINES);
        assert!(w.iter().all(|l| l.chars().count() <= LABEL_WIDTH + 2));
        assert!(w[LABEL_LINES - 1].ends_with('…'));
        assert_eq!(wrap_label(&"x".repeat(100))[0].chars().count(), LABEL_WIDTH);
        assert_eq!(wrap_label(""), vec![""]);
    }

    #[test]
    fn every_node_and_edge_has_its_id_and_classes() {
        let r = figure1();
        let cfa = r.cfa.unwrap();
        let nodes: Vec<_> = cfa.nodes.iter().collect();
        let edges: Vec<_> = cfa.edges.iter().collect();
        let dot = graph_dot(
            "cfa \"main\"",
            &nodes,
            &edges,
            |_| String::new(),
            |id| {
                if id == 3 {
                    "added".into()
                } else {
                    String::new()
                }
            },
        );
        assert!(dot.starts_with("digraph \"cfa \\\"main\\\"\" {"));
        for n in &cfa.nodes {
            assert!(dot.contains(&format!("n{0} [id=\"n{0}\"", n.id)));
        }
        for e in &cfa.edges {
            assert!(dot.contains(&format!("[id=\"e{}\"", e.id)));
        }
        assert!(dot.contains("class=\"kind-assume added\"") || dot.contains("added\""));
        assert_eq!(dot.matches(" -> ").count(), 39);
    }
}
