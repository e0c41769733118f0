//! Overflow checks (`signed-overflow=check`): a copy of the CFA in which every signed `+`,
//! `-`, `*` and unary `-` of at most 32 bits that can overflow is preceded by a check. An
//! edge whose expressions contain such operations, `n --op--> t`, becomes
//!
//! ```text
//! n --[ok]--> m --op--> t        n --[!(ok)]--> o   (o: an overflow location, a target)
//! ```
//!
//! where `ok` states, in C and evaluated in `long long`, that no checked operation of `op`
//! overflows (operations inside `c ? a : b`, `a && b` and `a || b` only where C evaluates
//! them). Where the check passes, each checked operation's mathematical result is its C
//! result, so the Int encoding encodes them without wrap-around (no `ite` chains or
//! quotient variables, which Farkas interpolation handles badly). A run that fails a check
//! reaches `o`: the analyses treat `o` as a target, and a feasible path to it ends the run
//! with UNKNOWN ([`crate::algorithm::overflow`]), never with a verdict. Together the two
//! cover every run of the wrap-around semantics: a run passes every check (and the ideal
//! encoding follows it exactly) or fails a first one (and is a path to a target), so TRUE
//! stays sound.
//!
//! Existing node and edge ids are kept (new ones are appended), so the events of an
//! analysis of the checked CFA name the locations of the original one; only the checks'
//! own locations and edges are new.

use crate::cfa::{Cfa, Edge, EdgeId, EdgeKind, Node, NodeId, NodeKind, Rhs};
use crate::ir::range::{raw_range, value_range};
use crate::ir::{BinOp, Expr, ExprKind, IntType, UnOp};

/// Whether signed arithmetic of type `ty` is checked (and then encoded without wrap-around
/// by the Int encoding): signed types of at most 32 bits, whose `+`, `-`, `*` results fit
/// in `long long`.
pub fn checked_type(ty: IntType) -> bool {
    ty.signed && ty.bits() <= 32
}

/// A copy of `cfa` with overflow checks before every edge that evaluates a checked operation
/// that can overflow (judged from the operands' static ranges).
pub fn checked(cfa: &Cfa) -> Cfa {
    let mut out = cfa.clone();
    out.overflow_checked = true;
    for n in 0..cfa.nodes.len() {
        let node = &cfa.nodes[n];
        let guards: Vec<(EdgeId, Option<Expr>)> = node
            .outgoing
            .iter()
            .map(|&e| (e, edge_ok(&cfa.edge(e).kind)))
            .collect();
        if guards.iter().all(|(_, g)| g.is_none()) {
            continue;
        }
        // The two branches of a condition share one check.
        let cond = |e: EdgeId| match &cfa.edge(e).kind {
            EdgeKind::Assume { cond, .. } => Some(cond),
            _ => None,
        };
        let branches = guards.len() > 1
            && cond(guards[0].0).is_some()
            && guards.iter().all(|(e, _)| cond(*e) == cond(guards[0].0));
        if branches {
            let ok = guards[0].1.clone().expect("a check");
            let edges: Vec<EdgeId> = guards.iter().map(|(e, _)| *e).collect();
            insert_check(&mut out, node.id, &edges, ok, NodeKind::Overflow);
        } else {
            for (e, ok) in guards {
                if let Some(ok) = ok {
                    insert_check(&mut out, node.id, &[e], ok, NodeKind::Overflow);
                }
            }
        }
    }
    crate::cfa::normalize::order(&mut out);
    out
}

/// Moves `edges` (all leaving `n`, at least one) behind a check `ok`, with its failure to a
/// new location of kind `fail` (a target: an overflow location, or an error location). The
/// caller orders the CFA again ([`crate::cfa::normalize::order`]) when it has inserted its checks.
pub(crate) fn insert_check(cfa: &mut Cfa, n: NodeId, edges: &[EdgeId], ok: Expr, fail: NodeKind) {
    let first = cfa.edge(edges[0]).clone();
    let function = cfa.node(n).function;
    let line = first.span.start_line;
    let new_node = |cfa: &mut Cfa, kind| {
        let id = NodeId(cfa.nodes.len() as u32);
        cfa.nodes.push(Node::new(id, function, line, kind));
        id
    };
    let m = new_node(cfa, NodeKind::Normal);
    let o = new_node(cfa, fail);
    let new_edge = |cfa: &mut Cfa, to, truth| {
        let id = EdgeId(cfa.edges.len() as u32);
        cfa.edges.push(Edge {
            id,
            from: n,
            to,
            kind: EdgeKind::Assume {
                cond: ok.clone(),
                truth,
            },
            span: first.span,
            text: None,
        });
        cfa.nodes[to.0 as usize].incoming.push(id);
        id
    };
    let pass = new_edge(cfa, m, true);
    let fail = new_edge(cfa, o, false);
    let at = cfa.nodes[n.0 as usize]
        .outgoing
        .iter()
        .position(|e| *e == edges[0])
        .expect("the edge leaves n");
    let outgoing = &mut cfa.nodes[n.0 as usize].outgoing;
    outgoing.retain(|e| !edges.contains(e));
    outgoing.splice(at..at, [pass, fail]);
    for &e in edges {
        cfa.edges[e.0 as usize].from = m;
        cfa.nodes[m.0 as usize].outgoing.push(e);
    }
    // A call moved behind its check starts at m: its return edges name m as the call site.
    if matches!(first.kind, EdgeKind::Call { .. }) {
        for edge in cfa.edges.iter_mut() {
            if let EdgeKind::Return { call_site, .. } = &mut edge.kind {
                if *call_site == n {
                    *call_site = m;
                }
            }
        }
    }
}

/// The condition that no checked operation of the edge's expressions overflows, `None` when
/// none can.
fn edge_ok(kind: &EdgeKind) -> Option<Expr> {
    let exprs: Vec<&Expr> = match kind {
        EdgeKind::Assume { cond, .. } => vec![cond],
        EdgeKind::Assign {
            rhs: Rhs::Expr(e), ..
        }
        | EdgeKind::Declare {
            init: Some(Rhs::Expr(e)),
            ..
        } => vec![e],
        EdgeKind::Call { args, .. } => args.iter().collect(),
        EdgeKind::ReturnValue { value: Some(e), .. } => vec![e],
        _ => Vec::new(),
    };
    exprs.into_iter().fold(None, |acc, e| and(acc, ok(e)))
}

fn int(kind: ExprKind) -> Expr {
    Expr {
        ty: IntType::INT,
        kind,
    }
}

fn and(a: Option<Expr>, b: Option<Expr>) -> Option<Expr> {
    match (a, b) {
        (Some(a), Some(b)) => Some(int(ExprKind::Binary(
            BinOp::LogAnd,
            Box::new(a),
            Box::new(b),
        ))),
        (a, None) => a,
        (None, b) => b,
    }
}

fn or(a: Expr, b: Expr) -> Expr {
    int(ExprKind::Binary(BinOp::LogOr, Box::new(a), Box::new(b)))
}

fn compare(op: BinOp, a: Expr, b: Expr) -> Expr {
    int(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// Whether `op` at `e.ty` over operands `a`, `b` is checked and can overflow.
fn can_overflow(e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> bool {
    checked_type(e.ty)
        && raw_range(op, value_range(a), value_range(b)).is_none_or(|r| !e.ty.contains_range(r))
}

/// The condition that evaluating `e` (as C does: `c ? a : b`, `a && b`, `a || b` evaluate
/// their second operands only when needed) overflows no checked operation; `None` for
/// `true`. Each operation's own check is stated over its operands' values, which are exact
/// where the checks of the operands pass (the conjunction evaluates those first).
fn ok(e: &Expr) -> Option<Expr> {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => None,
        ExprKind::Cast { operand, .. } => ok(operand),
        ExprKind::Unary(UnOp::Neg, a) if checked_type(e.ty) => {
            let r = value_range(a);
            let inner = ok(a);
            if e.ty.contains_range((-r.1, -r.0)) {
                inner
            } else {
                let min = Expr::constant(e.ty, e.ty.min_value());
                and(inner, Some(compare(BinOp::Ne, (**a).clone(), min)))
            }
        }
        ExprKind::Unary(_, a) => ok(a),
        ExprKind::Binary(BinOp::LogAnd, a, b) => {
            and(ok(a), ok(b).map(|ob| or((**a).clone().logical_not(), ob)))
        }
        ExprKind::Binary(BinOp::LogOr, a, b) => and(ok(a), ok(b).map(|ob| or((**a).clone(), ob))),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b)
            if can_overflow(e, *op, a, b) =>
        {
            let wide = |x: &Expr| x.clone().convert(IntType::LLONG);
            let v = Expr {
                ty: IntType::LLONG,
                kind: ExprKind::Binary(*op, Box::new(wide(a)), Box::new(wide(b))),
            };
            let lo = Expr::constant(IntType::LLONG, e.ty.min_value());
            let hi = Expr::constant(IntType::LLONG, e.ty.max_value());
            let fits = int(ExprKind::Binary(
                BinOp::LogAnd,
                Box::new(compare(BinOp::Le, lo, v.clone())),
                Box::new(compare(BinOp::Le, v, hi)),
            ));
            and(and(ok(a), ok(b)), Some(fits))
        }
        ExprKind::Binary(_, a, b) => and(ok(a), ok(b)),
        ExprKind::Ite(c, a, b) => {
            let then = ok(a).map(|oa| or((**c).clone().logical_not(), oa));
            let els = ok(b).map(|ob| or((**c).clone(), ob));
            and(ok(c), and(then, els))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    fn cfa(body: &str) -> Cfa {
        let src = format!("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {{\n{body}\n}}\n");
        parse_program("t.c", &src).expect("parses").cfa
    }

    fn labels(cfa: &Cfa) -> Vec<String> {
        cfa.edges.iter().map(|e| cfa.label(&e.kind)).collect()
    }

    #[test]
    fn checks_precede_operations_that_can_overflow_and_only_those() {
        let plain = cfa("int x = __VERIFIER_nondet_int(); char c = 1; int y = c + 1; x = x + 1; if (x * 2 > y) reach_error(); return 0;");
        let checked = checked(&plain);
        assert!(checked.overflow_checked);
        // Old ids are kept, the checks are appended: two checks (x + 1, and the shared one of
        // both branches of x * 2 > y), each with a pass and a fail edge.
        assert_eq!(checked.edges.len(), plain.edges.len() + 4);
        assert_eq!(checked.nodes.len(), plain.nodes.len() + 4);
        for (a, b) in plain.nodes.iter().zip(&checked.nodes) {
            assert_eq!((a.id, a.line, a.kind), (b.id, b.line, b.kind));
        }
        let l = labels(&checked);
        assert!(
            l.contains(&"[-2147483648 <= x + 1 && x + 1 <= 2147483647]".to_string()),
            "{l:?}"
        );
        assert!(l.contains(&"[!(-2147483648 <= x * 2 && x * 2 <= 2147483647)]".to_string()));
        // c + 1 cannot overflow: no check.
        assert!(!l.iter().any(|s| s.contains("c + 1 <=")), "{l:?}");
        assert_eq!(
            checked
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKind::Overflow)
                .count(),
            2
        );
        // Every edge is in its nodes' adjacency lists, and reverse postorder is a permutation.
        for e in &checked.edges {
            assert!(checked.node(e.from).outgoing.contains(&e.id));
            assert!(checked.node(e.to).incoming.contains(&e.id));
        }
        let mut rpo: Vec<u32> = checked.nodes.iter().map(|n| n.rpo).collect();
        rpo.sort();
        assert_eq!(rpo, (0..checked.nodes.len() as u32).collect::<Vec<_>>());
    }

    #[test]
    fn operations_c_does_not_evaluate_are_checked_only_where_it_does() {
        let plain = cfa("int x = __VERIFIER_nondet_int(); int y = x < 100 ? x + 1 : 0; if (x < 5 && x - 1 < 0) reach_error(); return 0;");
        let l = labels(&checked(&plain));
        assert!(
            l.contains(&"[!(x < 100) || -2147483648 <= x + 1 && x + 1 <= 2147483647]".to_string()),
            "{l:?}"
        );
    }
}
