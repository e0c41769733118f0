//! Values as a student thinks of memory: the cells of an array as one row (`a = [1, 7, 0]`),
//! a struct's members as fields (`s = {x: 3, y: 12}`), an address as the object and cell it
//! points to (`p = &a[1]`), the rest as `name = value`. Works on the names values are shown
//! under and the CFA's memory layout; a program without memory gets plain scalars.

use cpa_engine::report::MemoryLayout;
use std::collections::{BTreeMap, BTreeSet};

/// One entry of a value list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    Scalar {
        name: String,
        text: String,
        changed: bool,
    },
    /// An object whose cells have values: an array (`[1, 7, 0]`), a record (`{x: 3}`) or a
    /// mix (`{[0].x: 1}`).
    Object {
        name: String,
        shape: Shape,
        /// (the cell's part of the name, e.g. `[2]` or `.x`; its value; changed).
        cells: Vec<(String, String, bool)>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Array,
    Record,
    Mixed,
}

impl Shown {
    /// The entry as one line of text (`a = [1, 7, ?, 0]`).
    pub fn text(&self) -> String {
        match self {
            Shown::Scalar { name, text, .. } => format!("{name} = {text}"),
            Shown::Object { name, shape, cells } => {
                let items: Vec<String> = cells
                    .iter()
                    .map(|(part, v, _)| match shape {
                        Shape::Array => v.clone(),
                        Shape::Record => format!("{}: {v}", part.trim_start_matches('.')),
                        Shape::Mixed => format!("{part}: {v}"),
                    })
                    .collect();
                match shape {
                    Shape::Array => format!("{name} = [{}]", items.join(", ")),
                    _ => format!("{name} = {{{}}}", items.join(", ")),
                }
            }
        }
    }

    pub fn changed(&self) -> bool {
        match self {
            Shown::Scalar { changed, .. } => *changed,
            Shown::Object { cells, .. } => cells.iter().any(|c| c.2),
        }
    }
}

/// The value `v` of variable `name` as text: an address named by its object where `name`
/// holds addresses.
pub fn value_text(name: &str, v: i128, layout: Option<&MemoryLayout>) -> String {
    match layout {
        Some(l) if l.pointers.iter().any(|p| p == name) => u64::try_from(v)
            .ok()
            .and_then(|a| l.describe(a))
            .unwrap_or_else(|| v.to_string()),
        _ => v.to_string(),
    }
}

/// The values a value-analysis state knows, read from its label (`k = 0, a[1] = 2`, possibly
/// followed by ` ∧ ` and the predicates of a combined analysis): the values by name and the
/// rest. `None` when the label is not such a list (then it is shown as it is).
pub fn known_values(label: &str) -> Option<(BTreeMap<String, i128>, Option<&str>)> {
    let (list, rest) = match label.split_once(" ∧ ") {
        Some((l, r)) => (l, Some(r)),
        None => (label, None),
    };
    let mut values = BTreeMap::new();
    for pair in list.split(", ") {
        let (name, value) = pair.split_once(" = ")?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return None;
        }
        values.insert(name.to_string(), value.trim().parse().ok()?);
    }
    Some((values, rest))
}

/// `values` (after a step; `prev` before it) grouped by object, in the order of their names.
pub fn group(
    values: &BTreeMap<String, i128>,
    prev: Option<&BTreeMap<String, i128>>,
    layout: Option<&MemoryLayout>,
) -> Vec<Shown> {
    let changed = |k: &str, v: i128| prev.is_none_or(|p| p.get(k) != Some(&v));
    let mut cell_of: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    if let Some(l) = layout {
        for (i, o) in l.objects.iter().enumerate() {
            for (_, cell) in &o.cells {
                if let Some(part) = cell.strip_prefix(o.name.as_str()) {
                    if part.starts_with('[') || part.starts_with('.') {
                        cell_of.insert(cell.as_str(), (i, part));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut placed: BTreeSet<usize> = BTreeSet::new();
    for (k, v) in values {
        let Some(&(obj, _)) = cell_of.get(k.as_str()) else {
            out.push(Shown::Scalar {
                name: k.clone(),
                text: value_text(k, *v, layout),
                changed: changed(k, *v),
            });
            continue;
        };
        if !placed.insert(obj) {
            continue;
        }
        let Some(o) = layout.map(|l| &l.objects[obj]) else {
            continue;
        };
        let cells: Vec<(String, Option<(String, bool)>)> = o
            .cells
            .iter()
            .filter_map(|(_, cell)| {
                let &(_, part) = cell_of.get(cell.as_str())?;
                let value = values
                    .get(cell)
                    .map(|x| (value_text(cell, *x, layout), changed(cell, *x)));
                Some((part.to_string(), value))
            })
            .collect();
        let is_index = |p: &str| {
            p.strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
        };
        let shape = if cells.iter().all(|(p, _)| is_index(p)) {
            Shape::Array
        } else if cells
            .iter()
            .all(|(p, _)| p.starts_with('.') && !p[1..].contains(['.', '[']))
        {
            Shape::Record
        } else {
            Shape::Mixed
        };
        // An array shows every cell (unknown ones as `?`); other shapes the known fields.
        let cells = cells
            .into_iter()
            .filter_map(|(p, v)| match (v, shape) {
                (Some((t, c)), _) => Some((p, t, c)),
                (None, Shape::Array) => Some((p, "?".into(), false)),
                (None, _) => None,
            })
            .collect();
        out.push(Shown::Object {
            name: o.name.clone(),
            shape,
            cells,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_states_label_reads_as_its_values() {
        let (v, rest) = known_values("a[1] = 2, a[2] = -4, j = 5").unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v["a[2]"], -4);
        assert_eq!(rest, None);
        let (v, rest) = known_values("p = 2097152 ∧ (and (= |swap::p| 2097152))").unwrap();
        assert_eq!(v["p"], 2097152);
        assert_eq!(rest, Some("(and (= |swap::p| 2097152))"));
        assert_eq!(known_values("(and x y)"), None);
        assert_eq!(known_values("x = y + 1"), None);
    }
    use cpa_engine::report::LayoutObject;

    fn layout() -> MemoryLayout {
        let obj = |name: &str, base: u64, cells: &[(u64, &str)], heap: bool| LayoutObject {
            name: name.into(),
            base,
            size: cells.len() as u64 * 4,
            heap,
            cells: cells.iter().map(|(o, n)| (*o, n.to_string())).collect(),
        };
        MemoryLayout {
            objects: vec![
                obj(
                    "a",
                    1 << 21,
                    &[(0, "a[0]"), (4, "a[1]"), (8, "a[2]")],
                    false,
                ),
                obj("s", 2 << 21, &[(0, "s.x"), (4, "s.y")], false),
                obj("t", 3 << 21, &[(0, "t[0].x"), (4, "t[1].x")], false),
                obj("malloc@9", 4 << 21, &[(0, "malloc@9[0]")], true),
            ],
            pointers: vec!["p".into(), "q".into(), "h".into()],
        }
    }

    fn values(pairs: &[(&str, i128)]) -> BTreeMap<String, i128> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn arrays_rows_structs_fields_pointers_names() {
        let l = layout();
        let before = values(&[("a[0]", 1), ("a[2]", 0), ("s.x", 3), ("s.y", 4), ("n", 2)]);
        let after = values(&[
            ("a[0]", 1),
            ("a[2]", 7),
            ("s.x", 3),
            ("s.y", 4),
            ("n", 2),
            ("p", (1 << 21) + 4),
            ("q", 0),
            ("h", 4 << 21),
            ("t[1].x", 5),
            ("malloc@9[0]", 8),
        ]);
        let shown = group(&after, Some(&before), Some(&l));
        let texts: Vec<String> = shown.iter().map(Shown::text).collect();
        assert_eq!(
            texts,
            [
                "a = [1, ?, 7]",
                "h = malloc@9[0] (+0)",
                "malloc@9 = [8]",
                "n = 2",
                "p = &a[1]",
                "q = NULL",
                "s = {x: 3, y: 4}",
                "t = {[1].x: 5}",
            ]
        );
        let changed: Vec<bool> = shown.iter().map(Shown::changed).collect();
        assert_eq!(changed, [true, true, true, false, true, true, false, true]);
    }

    #[test]
    fn without_memory_values_are_scalars() {
        let shown = group(&values(&[("x", -5), ("u", 7)]), None, None);
        let texts: Vec<String> = shown.iter().map(Shown::text).collect();
        assert_eq!(texts, ["u = 7", "x = -5"]);
    }
}
