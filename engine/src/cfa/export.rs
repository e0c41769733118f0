//! The CFA (and its LBE summary) as a plain graph: the JSON of `cpa cfa --format json`, DOT,
//! and the data the playground renders.

use crate::cfa::{Cfa, EdgeKind, NodeKind};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct GraphNode {
    pub id: u32,
    pub function: String,
    pub line: u32,
    pub loop_head: bool,
    pub error: bool,
    /// `entry`, `exit`, `error`, `termination` or `normal`.
    pub kind: String,
    /// The value ranges known at the location (the playground's CFA report fills them in
    /// from the octagon analysis; empty elsewhere).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<Range>,
}

/// The value range of a variable at a location, where it is narrower than the variable's type.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Range {
    /// The variable's unindexed SMT name (`main::x`, as in predicates).
    pub var: String,
    /// The bounds, as decimal text (they may need more than 64 bits).
    pub lo: String,
    pub hi: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct GraphEdge {
    pub id: u32,
    pub from: u32,
    pub to: u32,
    pub label: String,
    /// First and last source line the edge stands for.
    pub lines: [u32; 2],
    /// `blank`, `assume`, `assign`, `declare`, `call`, `return`, `return-value`, `error`,
    /// `abort`, or `summary` for LBE edges.
    pub kind: String,
    /// For LBE summary edges: the ids of the original CFA edges the edge stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edges: Option<Vec<u32>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Graph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    /// The memory model's objects (CFA graphs of programs with memory): how the views group
    /// cells into arrays and structs and show addresses as `&a[2]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryLayout>,
}

/// The objects of a program's memory and its pointer variables, by the names that values are
/// shown under.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct MemoryLayout {
    pub objects: Vec<LayoutObject>,
    /// Variables (and cells) whose values are addresses.
    pub pointers: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LayoutObject {
    pub name: String,
    pub base: u64,
    pub size: u64,
    pub heap: bool,
    /// (offset, the cell's name), in address order.
    pub cells: Vec<(u64, String)>,
}

impl Graph {
    /// The node of location `id` (nodes are stored in id order; any order is found).
    pub fn node(&self, id: u32) -> Option<&GraphNode> {
        self.nodes
            .get(id as usize)
            .filter(|n| n.id == id)
            .or_else(|| self.nodes.iter().find(|n| n.id == id))
    }
}

impl MemoryLayout {
    /// The object and cell an address points into, as C text (see
    /// [`Cfa::describe_address`], which this mirrors for the page).
    pub fn describe(&self, a: u64) -> Option<String> {
        if a == 0 {
            return Some("NULL".into());
        }
        let o = self
            .objects
            .iter()
            .find(|o| a >= o.base && a <= o.base + o.size)?;
        let off = a - o.base;
        if let Some((_, name)) = o.cells.iter().find(|(c, _)| *c == off) {
            return Some(if o.heap {
                format!("{name} (+{off})")
            } else {
                format!("&{name}")
            });
        }
        Some(if off == 0 {
            format!("&{}", o.name)
        } else {
            format!("&{} + {off} bytes", o.name)
        })
    }
}

pub fn node_kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Normal => "normal",
        NodeKind::FunctionEntry => "entry",
        NodeKind::FunctionExit => "exit",
        NodeKind::Error => "error",
        NodeKind::Overflow => "overflow",
        NodeKind::Termination => "termination",
        NodeKind::Undefined(_) => "undefined",
    }
}

pub fn edge_kind_name(k: &EdgeKind) -> &'static str {
    match k {
        EdgeKind::Blank(_) => "blank",
        EdgeKind::Assume { .. } => "assume",
        EdgeKind::Assign { .. } => "assign",
        EdgeKind::Declare { .. } => "declare",
        EdgeKind::Call { .. } => "call",
        EdgeKind::Return { .. } => "return",
        EdgeKind::ReturnValue { .. } => "return-value",
        EdgeKind::ReachError(_) => "error",
        EdgeKind::Abort(_) => "abort",
    }
}

impl Cfa {
    pub fn graph_node(&self, id: crate::cfa::NodeId) -> GraphNode {
        let n = self.node(id);
        GraphNode {
            id: n.id.0,
            function: self.function(n.function).name.clone(),
            line: n.line,
            loop_head: n.loop_head,
            error: n.is_error(),
            kind: node_kind_name(n.kind).to_string(),
            ranges: Vec::new(),
        }
    }

    pub fn graph(&self) -> Graph {
        Graph {
            nodes: self.nodes.iter().map(|n| self.graph_node(n.id)).collect(),
            edges: self
                .edges
                .iter()
                .map(|e| GraphEdge {
                    id: e.id.0,
                    from: e.from.0,
                    to: e.to.0,
                    label: self.edge_text(e),
                    lines: [e.span.start_line, e.span.end_line],
                    kind: edge_kind_name(&e.kind).to_string(),
                    edges: None,
                })
                .collect(),
            memory: self.memory_layout(),
        }
    }

    /// The layout of the program's objects, `None` for a program without memory.
    pub fn memory_layout(&self) -> Option<MemoryLayout> {
        if self.objects.is_empty() && !self.vars.iter().any(|v| v.pointer) {
            return None;
        }
        let mut pointers: Vec<String> = self
            .vars
            .iter()
            .filter(|v| v.pointer && !v.synthetic)
            .map(|v| v.name.clone())
            .collect();
        pointers.sort();
        pointers.dedup();
        Some(MemoryLayout {
            objects: self
                .objects
                .iter()
                .map(|o| LayoutObject {
                    name: o.name.clone(),
                    base: o.base,
                    size: o.size,
                    heap: o.heap,
                    cells: o
                        .cells
                        .iter()
                        .map(|(off, v)| (*off, self.var(*v).name.clone()))
                        .collect(),
                })
                .collect(),
            pointers,
        })
    }
}

fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\l"),
            _ => out.push(c),
        }
    }
    out
}

impl Graph {
    /// Graphviz DOT, one cluster per function.
    pub fn to_dot(&self, name: &str) -> String {
        let mut s = String::new();
        s.push_str(&format!("digraph \"{}\" {{\n", dot_escape(name)));
        s.push_str("  node [shape=circle fontname=\"monospace\" fontsize=10];\n");
        s.push_str("  edge [fontname=\"monospace\" fontsize=9];\n");
        let mut functions: Vec<&str> = Vec::new();
        for n in &self.nodes {
            if !functions.contains(&n.function.as_str()) {
                functions.push(&n.function);
            }
        }
        for (i, f) in functions.iter().enumerate() {
            s.push_str(&format!(
                "  subgraph cluster_{i} {{\n    label=\"{}\";\n",
                dot_escape(f)
            ));
            for n in self.nodes.iter().filter(|n| n.function == *f) {
                let mut attrs = vec![format!("label=\"N{}\\n{}\"", n.id, n.line)];
                match n.kind.as_str() {
                    "error" => attrs.push("shape=doublecircle color=red fontcolor=red".into()),
                    "entry" => attrs.push("shape=box".into()),
                    "exit" => attrs.push("shape=box peripheries=2".into()),
                    "termination" => attrs.push("shape=octagon".into()),
                    _ => {}
                }
                if n.loop_head {
                    attrs.push("style=bold penwidth=2".into());
                }
                s.push_str(&format!("    n{} [{}];\n", n.id, attrs.join(" ")));
            }
            s.push_str("  }\n");
        }
        for e in &self.edges {
            let style = match e.kind.as_str() {
                "call" | "return" => " style=dashed",
                _ => "",
            };
            s.push_str(&format!(
                "  n{} -> n{} [label=\"{}\" id=\"e{}\"{}];\n",
                e.from,
                e.to,
                dot_escape(&e.label),
                e.id,
                style
            ));
        }
        s.push_str("}\n");
        s
    }
}
