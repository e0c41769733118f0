//! Correctness witnesses: loop invariants written for TRUE, and a witness's invariants read
//! and placed on the program for the check ([`crate::proof::induction`]).
//!
//! **Writing.** An analysis that proved the program gives its invariants per location
//! ([`crate::cpa::algorithm::Algorithm::invariants`]: the abstraction formulas of the final ARG,
//! or k-induction's interval invariants); those at loop heads become `loop_invariant` entries,
//! each a C expression ([`crate::witness::c_expr`]) located at the loop statement.
//!
use crate::cfa::{Cfa, NodeId};
use crate::formula::Names;
use crate::frontend::invariant::{parse_ensures, parse_invariant, MAX_INVARIANT_BYTES};
use crate::invariants::{Formula, LocationInvariant};
use crate::ir::Expr;
use crate::text::short;
use crate::witness::c_expr::Scope;
use crate::witness::{Entry, Invariant, InvariantEntry, InvariantType, Location, Metadata};
use std::collections::BTreeMap;

/// The 1-based column of the loop statement on `line` of `source` (the keyword `while`, `for`
/// or `do` when the line has one, else its first non-blank character).
fn loop_column(source: &str, line: u32) -> u32 {
    let Some(text) = source.lines().nth(line.saturating_sub(1) as usize) else {
        return 1;
    };
    let keyword = ["while", "for", "do"].iter().find_map(|k| {
        text.match_indices(k).map(|(i, _)| i).find(|&i| {
            let before = text[..i].chars().last();
            let after = text[i + k.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    });
    match keyword {
        Some(byte) => text[..byte].chars().count() as u32 + 1,
        None => first_column(source, line),
    }
}

/// The 1-based column of the first non-blank character on `line` of `source`.
fn first_column(source: &str, line: u32) -> u32 {
    let text = source
        .lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or("");
    let byte = text.len() - text.trim_start().len();
    text[..byte].chars().count() as u32 + 1
}

/// The correctness witness of a proof: one `loop_invariant` per loop head with an invariant
/// (several invariants at one loop head, from different calling contexts, are joined by
/// `||`).
pub fn write(
    cfa: &Cfa,
    source: &str,
    file: &str,
    invariants: &[LocationInvariant],
    metadata: Metadata,
) -> Entry {
    let names = Names::new(cfa);
    let mut at: BTreeMap<NodeId, Vec<String>> = BTreeMap::new();
    let mut contracts = Vec::new();
    for inv in invariants {
        let node = cfa.node(inv.location);
        if let Some(c) = contract(cfa, source, file, inv) {
            contracts.push(c);
            continue;
        }
        if !node.loop_head {
            continue;
        }
        let text = match &inv.formula {
            Formula::Smt(t) => Scope::new(cfa, &names, node.function).to_c(t),
            Formula::C(e) => visible_conjuncts(cfa, node.function, e),
        };
        // A text too long for a validator (ours reads at most MAX_INVARIANT_BYTES) is
        // weakened to `1`: still true, no longer a proof.
        let text = if text.len() > MAX_INVARIANT_BYTES / 2 {
            "1".to_string()
        } else {
            text
        };
        at.entry(inv.location).or_default().push(text);
    }
    let content: Vec<InvariantEntry> = at
        .into_iter()
        .map(|(loc, texts)| {
            let node = cfa.node(loc);
            let value = if texts.iter().any(|t| t == "1") {
                "1".to_string()
            } else if texts.len() == 1 {
                texts[0].clone()
            } else {
                texts
                    .iter()
                    .map(|t| format!("({t})"))
                    .collect::<Vec<_>>()
                    .join(" || ")
            };
            InvariantEntry {
                invariant: Invariant {
                    kind: InvariantType::LoopInvariant,
                    location: Location {
                        file_name: file.into(),
                        line: node.line,
                        column: Some(loop_column(source, node.line)),
                        function: Some(cfa.function(node.function).name.clone()),
                    },
                    value: Some(value),
                    requires: None,
                    ensures: None,
                    format: "c_expression".into(),
                },
            }
        })
        .chain(contracts)
        .collect();
    let mut metadata = metadata;
    let with_contracts = content
        .iter()
        .any(|e| e.invariant.kind == InvariantType::FunctionContract);
    if with_contracts {
        // Function contracts are format 2.1's.
        metadata.format_version = "2.1".into();
    }
    Entry::InvariantSet { metadata, content }
}

/// An invariant at a function's exit over its return value alone, as the function's contract
/// (format 2.1): `requires` 1, `ensures` the invariant with `\result` for the return value,
/// located at the function's first line.
fn contract(
    cfa: &Cfa,
    source: &str,
    file: &str,
    inv: &LocationInvariant,
) -> Option<InvariantEntry> {
    let node = cfa.node(inv.location);
    let function = cfa.function(node.function);
    let (_, retval) = function.ret?;
    let Formula::C(e) = &inv.formula else {
        return None;
    };
    if function.exit != inv.location || node.loop_head {
        return None;
    }
    let mut only_result = true;
    e.for_each_var(&mut |v| only_result &= v == retval);
    if !only_result {
        return None;
    }
    let name = e.display(cfa).to_string();
    let ensures = name.replace(cfa.var(retval).name.as_str(), "\\result");
    let line = function.span.start_line;
    Some(InvariantEntry {
        invariant: Invariant {
            kind: InvariantType::FunctionContract,
            location: Location {
                file_name: file.into(),
                line,
                column: Some(first_column(source, line)),
                function: Some(function.name.clone()),
            },
            value: None,
            requires: Some("1".into()),
            ensures: Some(ensures),
            format: "ext_c_expression".into(),
        },
    })
}

/// The conjuncts of `e` over variables visible under their names in `function`, as C (`1`
/// when none is).
fn visible_conjuncts(cfa: &Cfa, function: crate::ir::FuncId, e: &Expr) -> String {
    fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            crate::ir::ExprKind::Binary(crate::ir::BinOp::LogAnd, a, b) => {
                conjuncts(a, out);
                conjuncts(b, out);
            }
            _ => out.push(e),
        }
    }
    let visible = crate::frontend::invariant::visible_variables(cfa, function);
    let mut parts = Vec::new();
    conjuncts(e, &mut parts);
    let kept: Vec<String> = parts
        .into_iter()
        .filter(|c| {
            let mut all = true;
            c.for_each_var(&mut |v| {
                all &= visible.get(&cfa.var(v).name) == Some(&Some(v));
            });
            all
        })
        .map(|c| format!("({})", c.display(cfa)))
        .collect();
    if kept.is_empty() {
        "1".into()
    } else {
        kept.join(" && ")
    }
}

/// The function an entry's location names (or, without a name, whose span has the line).
fn function_at(cfa: &Cfa, at: &Location) -> std::result::Result<crate::ir::FuncId, String> {
    match &at.function {
        Some(f) => Ok(cfa
            .function_by_name(f)
            .ok_or_else(|| format!("the program has no function '{f}'"))?
            .id),
        None => Ok(cfa
            .functions
            .iter()
            .find(|f| (f.span.start_line..=f.span.end_line).contains(&at.line))
            .ok_or_else(|| format!("no function contains line {}", at.line))?
            .id),
    }
}

/// The location an invariant entry speaks about: a loop head in the named function at the
/// entry's line (or, failing that, the first loop head after it, for loops whose head is
/// their body's first statement), a location invariant at the first location of its line.
fn place(cfa: &Cfa, inv: &Invariant) -> std::result::Result<NodeId, String> {
    let function = function_at(cfa, &inv.location)?;
    let line = inv.location.line;
    let mut candidates: Vec<&crate::cfa::Node> = cfa
        .nodes
        .iter()
        .filter(|n| n.function == function && !n.is_error())
        .filter(|n| n.incoming.len() + n.outgoing.len() > 0)
        .collect();
    candidates.sort_by_key(|n| (n.line, n.rpo));
    let found = match inv.kind {
        InvariantType::LoopInvariant => candidates
            .iter()
            .find(|n| n.loop_head && n.line == line)
            .or_else(|| {
                // A loop whose head is its body's first statement (`do {` on its own line).
                candidates
                    .iter()
                    .find(|n| n.loop_head && n.line > line && n.line <= line + 2)
            }),
        InvariantType::LocationInvariant => candidates.iter().find(|n| n.line == line),
        InvariantType::FunctionContract => None,
    };
    found.map(|n| n.id).ok_or_else(|| {
        format!(
            "no {} at line {line} of function '{}'",
            match inv.kind {
                InvariantType::LoopInvariant => "loop",
                InvariantType::LocationInvariant => "statement",
                InvariantType::FunctionContract => "function contract",
            },
            cfa.function(function).name
        )
    })
}

/// The invariants of a witness's invariant sets, parsed and placed; several at one location
/// are conjoined. Function contracts are [`read_contracts`]'. `Err` says why the witness
/// cannot be read on this program.
pub fn read(
    cfa: &Cfa,
    content: &[InvariantEntry],
) -> std::result::Result<BTreeMap<NodeId, Vec<(Expr, String)>>, String> {
    let mut out: BTreeMap<NodeId, Vec<(Expr, String)>> = BTreeMap::new();
    for e in content {
        let inv = &e.invariant;
        if inv.kind == InvariantType::FunctionContract {
            continue;
        }
        let Some(value) = &inv.value else {
            return Err(format!("invariant at line {}: no value", inv.location.line));
        };
        if inv.format != "c_expression" {
            return Err(format!(
                "invariant at line {}: format '{}' is not supported (only c_expression)",
                inv.location.line, inv.format
            ));
        }
        let at = place(cfa, inv).map_err(|e| format!("invariant '{}': {e}", short(value)))?;
        let expr = parse_invariant(cfa, cfa.node(at).function, value).map_err(|e| {
            format!(
                "invariant '{}' at line {}: {e}",
                short(value),
                inv.location.line
            )
        })?;
        out.entry(at).or_default().push((expr, value.clone()));
    }
    Ok(out)
}

/// The function contracts of a witness's invariant sets (format 2.1): per function, its
/// `ensures` clause as a condition over its return variable, with the text. Supported are the
/// contracts this tool writes: `requires` a constant that is not zero, `ensures` over
/// `\result` alone. Several contracts of one function are conjoined.
pub fn read_contracts(
    cfa: &Cfa,
    content: &[InvariantEntry],
) -> std::result::Result<BTreeMap<crate::ir::FuncId, (Expr, String)>, String> {
    let mut out: BTreeMap<crate::ir::FuncId, (Expr, String)> = BTreeMap::new();
    for e in content {
        let inv = &e.invariant;
        if inv.kind != InvariantType::FunctionContract {
            continue;
        }
        let at = format!("function contract at line {}", inv.location.line);
        let f = function_at(cfa, &inv.location).map_err(|e| format!("{at}: {e}"))?;
        if let Some(requires) = &inv.requires {
            let pre = parse_invariant(cfa, f, requires)
                .map_err(|e| format!("{at}: requires '{}': {e}", short(requires)))?;
            if !crate::ir::semantics::eval_const(&pre).is_ok_and(|v| v != 0) {
                return Err(format!(
                    "{at}: requires '{}': only a constant true precondition is supported",
                    short(requires)
                ));
            }
        }
        let ensures = inv.ensures.as_deref().unwrap_or("1");
        let post = parse_ensures(cfa, f, ensures)
            .map_err(|e| format!("{at}: ensures '{}': {e}", short(ensures)))?;
        match out.entry(f) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert((post, ensures.to_string()));
            }
            std::collections::btree_map::Entry::Occupied(mut o) => {
                let (e, t) = o.get_mut();
                *e = crate::invariants::intervals::conj(vec![e.clone(), post])
                    .expect("two conjuncts");
                *t = format!("({t}) && ({ensures})");
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::loop_column;

    #[test]
    fn loop_columns_point_at_the_keyword() {
        let src = "int main() {\n  while (x) {}\n\tfor (;;) {}\n  x = 1;\n  dowhile = 2;\n}";
        assert_eq!(loop_column(src, 2), 3);
        assert_eq!(loop_column(src, 3), 2);
        assert_eq!(loop_column(src, 4), 3);
        assert_eq!(loop_column(src, 5), 3);
        assert_eq!(loop_column(src, 99), 1);
    }
}
