//! Structural delta debugging on the generator's tree. Every candidate is the current program
//! with one reduction applied somewhere: a function, a global or a run of statements deleted, a
//! compound statement replaced by its body, a loop bound lowered, an expression replaced by
//! one of its operands or by a small constant. Candidates that would not compile (a deleted
//! declaration still in use, a non-void function without its final `return`) are never
//! checked. The smallest candidate that still shows the failure (by the caller's `check`)
//! becomes the current program, until no candidate does or the budget of checks is spent.

use crate::fuzz::ast::*;
use std::collections::{BTreeMap, BTreeSet};

/// The minimized program and the number of checks spent.
pub fn minimize(
    program: &Program,
    budget: usize,
    mut check: impl FnMut(&Program) -> bool,
) -> (Program, usize) {
    let mut current = program.clone();
    let mut cache: BTreeMap<String, bool> = BTreeMap::new();
    cache.insert(current.render(), true);
    let mut spent = 0;
    'rounds: loop {
        let here = measure(&current);
        let mut candidates: Vec<((usize, u64, u64), String, Program)> = variants(&current)
            .into_iter()
            .filter(valid)
            .map(|p| (measure(&p), p.render(), p))
            .filter(|(m, _, _)| *m < here)
            .collect();
        candidates.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        candidates.dedup_by(|a, b| a.1 == b.1);
        for (_, text, cand) in candidates {
            let ok = match cache.get(&text) {
                Some(ok) => *ok,
                None => {
                    if spent >= budget {
                        break 'rounds;
                    }
                    spent += 1;
                    let ok = check(&cand);
                    cache.insert(text, ok);
                    ok
                }
            };
            if ok {
                current = cand;
                continue 'rounds;
            }
        }
        break;
    }
    (current, spent)
}

/// Size of a program: its text, then its loop bounds, then its constants. Every accepted
/// candidate is strictly smaller, so minimization ends.
fn measure(p: &Program) -> (usize, u64, u64) {
    fn consts(e: &Expr) -> u64 {
        match e {
            Expr::Const(v, _) => v.unsigned_abs().min(1 << 20) as u64,
            Expr::Var(..) => 0,
            Expr::Unary(_, a) | Expr::Cast(_, a) => consts(a),
            Expr::Bin(_, a, b) => consts(a) + consts(b),
            Expr::Ite(c, a, b) => consts(c) + consts(a) + consts(b),
        }
    }
    fn walk(b: &[Stmt], bounds: &mut u64, cs: &mut u64) {
        for s in b {
            match s {
                Stmt::For { bound, .. }
                | Stmt::While { bound, .. }
                | Stmt::DoWhile { bound, .. }
                | Stmt::GotoLoop { bound, .. } => *bounds += u64::from(*bound),
                _ => {}
            }
            for e in s.exprs() {
                *cs += consts(e);
            }
            for sub in s.blocks() {
                walk(sub, bounds, cs);
            }
        }
    }
    let (mut bounds, mut cs) = (0, 0);
    walk(&p.main, &mut bounds, &mut cs);
    for f in &p.funcs {
        walk(&f.body, &mut bounds, &mut cs);
    }
    (p.render().len(), bounds, cs)
}

/// Every name used is declared somewhere, and every non-void function ends with `return`.
fn valid(p: &Program) -> bool {
    let mut declared: BTreeSet<&str> = BTreeSet::new();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    fn expr<'a>(e: &'a Expr, used: &mut BTreeSet<&'a str>) {
        match e {
            Expr::Var(n, _) => {
                used.insert(n);
            }
            Expr::Const(..) => {}
            Expr::Unary(_, a) | Expr::Cast(_, a) => expr(a, used),
            Expr::Bin(_, a, b) => {
                expr(a, used);
                expr(b, used);
            }
            Expr::Ite(c, a, b) => {
                expr(c, used);
                expr(a, used);
                expr(b, used);
            }
        }
    }
    fn walk<'a>(b: &'a [Stmt], declared: &mut BTreeSet<&'a str>, used: &mut BTreeSet<&'a str>) {
        for s in b {
            match s {
                Stmt::Decl { name, .. } => {
                    declared.insert(name);
                }
                Stmt::For { var, .. }
                | Stmt::While { var, .. }
                | Stmt::DoWhile { var, .. }
                | Stmt::NondetLoop { var, .. } => {
                    declared.insert(var);
                }
                Stmt::GotoLoop { var, label, .. } => {
                    declared.insert(var);
                    declared.insert(label);
                }
                Stmt::Assign { name, .. } | Stmt::Incr { name, .. } | Stmt::Havoc { name, .. } => {
                    used.insert(name);
                }
                Stmt::Memory { reads, writes, .. } => {
                    for n in reads.iter().chain(writes) {
                        used.insert(n);
                    }
                }
                Stmt::Call { target, func, .. } => {
                    used.insert(func);
                    if let Some((t, _)) = target {
                        used.insert(t);
                    }
                }
                _ => {}
            }
            for e in s.exprs() {
                expr(e, used);
            }
            for sub in s.blocks() {
                walk(sub, declared, used);
            }
        }
    }
    for g in &p.globals {
        declared.insert(&g.name);
    }
    for f in &p.funcs {
        declared.insert(&f.name);
        for (n, _) in &f.params {
            declared.insert(n);
        }
        walk(&f.body, &mut declared, &mut used);
        if f.ret.is_some() && !matches!(f.body.last(), Some(Stmt::Return(Some(_)))) {
            return false;
        }
    }
    walk(&p.main, &mut declared, &mut used);
    used.is_subset(&declared)
}

/// Every program one reduction away from `p`.
pub fn variants(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    for i in 0..p.funcs.len() {
        let mut q = p.clone();
        q.funcs.remove(i);
        out.push(q);
    }
    for i in 0..p.globals.len() {
        let mut q = p.clone();
        q.globals.remove(i);
        out.push(q);
        if p.globals[i].init != 0 {
            let mut q = p.clone();
            q.globals[i].init = 0;
            out.push(q);
        }
    }
    for (i, f) in p.funcs.iter().enumerate() {
        for b in block_variants(&f.body) {
            let mut q = p.clone();
            q.funcs[i].body = b;
            out.push(q);
        }
    }
    for b in block_variants(&p.main) {
        let mut q = p.clone();
        q.main = b;
        out.push(q);
    }
    out
}

/// Variants of a block: runs of statements deleted (halves down to single statements), and
/// each statement replaced by one of its variants.
fn block_variants(b: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    let n = b.len();
    let mut chunk = n;
    while chunk >= 1 {
        let mut start = 0;
        while start < n {
            let end = (start + chunk).min(n);
            let mut v = b[..start].to_vec();
            v.extend_from_slice(&b[end..]);
            out.push(v);
            start += chunk;
        }
        chunk /= 2;
    }
    for (i, s) in b.iter().enumerate() {
        for repl in stmt_variants(s) {
            let mut v = b[..i].to_vec();
            v.extend(repl);
            v.extend_from_slice(&b[i + 1..]);
            out.push(v);
        }
    }
    out
}

fn counter(var: &str) -> Stmt {
    Stmt::Decl {
        name: var.to_string(),
        ty: Ty::Int,
        init: Some(Expr::int(0)),
    }
}

/// Replacements of one statement (each a sequence of statements).
fn stmt_variants(s: &Stmt) -> Vec<Vec<Stmt>> {
    let mut out: Vec<Vec<Stmt>> = Vec::new();
    // The statement replaced by (the contents of) its body.
    match s {
        Stmt::If { then, els, cond } => {
            out.push(vec![Stmt::Block(then.clone())]);
            if !els.is_empty() {
                out.push(vec![Stmt::Block(els.clone())]);
                out.push(vec![Stmt::If {
                    cond: cond.clone(),
                    then: then.clone(),
                    els: Vec::new(),
                }]);
            }
        }
        Stmt::For { var, body, .. }
        | Stmt::While { var, body, .. }
        | Stmt::DoWhile { var, body, .. }
        | Stmt::GotoLoop { var, body, .. } => {
            let mut v = vec![counter(var)];
            v.extend(body.iter().cloned());
            out.push(vec![Stmt::Block(v)]);
        }
        Stmt::NondetLoop { var, body } => {
            // One iteration with the exit variable still an input.
            let mut v = vec![Stmt::Decl {
                name: var.clone(),
                ty: Ty::Int,
                init: None,
            }];
            v.extend(body.iter().cloned());
            out.push(vec![Stmt::Block(v)]);
        }
        Stmt::SkipTo { body, .. } => out.push(vec![Stmt::Block(body.clone())]),
        Stmt::Block(body) if !body.iter().any(|s| s.declares().is_some()) => {
            out.push(body.clone());
        }
        Stmt::Decl {
            name,
            ty,
            init: None,
        } => out.push(vec![Stmt::Decl {
            name: name.clone(),
            ty: *ty,
            init: Some(Expr::Const(0, *ty)),
        }]),
        Stmt::Assign {
            name,
            ty,
            op: Some(_),
            e,
        } => out.push(vec![Stmt::Assign {
            name: name.clone(),
            ty: *ty,
            op: None,
            e: e.clone(),
        }]),
        Stmt::Call {
            target: Some((t, ty)),
            func,
            args,
        } => {
            out.push(vec![Stmt::Call {
                target: None,
                func: func.clone(),
                args: args.clone(),
            }]);
            out.push(vec![Stmt::Assign {
                name: t.clone(),
                ty: *ty,
                op: None,
                e: Expr::Const(0, *ty),
            }]);
        }
        _ => {}
    }
    // Lower loop bounds.
    let lowered = |b: u32| -> Vec<u32> {
        let mut v: Vec<u32> = [0, 1, b / 2, b.saturating_sub(1)]
            .into_iter()
            .filter(|x| *x < b)
            .collect();
        v.dedup();
        v
    };
    match s {
        Stmt::For { bound, .. }
        | Stmt::While { bound, .. }
        | Stmt::DoWhile { bound, .. }
        | Stmt::GotoLoop { bound, .. } => {
            let floor = u32::from(matches!(s, Stmt::DoWhile { .. } | Stmt::GotoLoop { .. }));
            for nb in lowered(*bound).into_iter().filter(|b| *b >= floor) {
                let mut t = s.clone();
                if let Stmt::For { bound, .. }
                | Stmt::While { bound, .. }
                | Stmt::DoWhile { bound, .. }
                | Stmt::GotoLoop { bound, .. } = &mut t
                {
                    *bound = nb;
                }
                out.push(vec![t]);
            }
        }
        _ => {}
    }
    // Sub-blocks.
    let nblocks = s.blocks().len();
    for k in 0..nblocks {
        let sub = s.blocks()[k].clone();
        for v in block_variants(&sub) {
            let mut t = s.clone();
            *t.blocks_mut()[k] = v;
            out.push(vec![t]);
        }
    }
    // Expressions.
    let nexprs = s.exprs().len();
    for k in 0..nexprs {
        let e = s.exprs()[k].clone();
        for v in expr_variants(&e) {
            let mut t = s.clone();
            *t.exprs_mut()[k] = v;
            out.push(vec![t]);
        }
    }
    out
}

/// Every expression one simplification away from `e`.
fn expr_variants(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    let t = e.ty();
    match e {
        Expr::Const(v, ty) => {
            for w in [0, 1, v / 2] {
                if w != *v && w.unsigned_abs() < v.unsigned_abs() {
                    out.push(Expr::Const(w, *ty));
                }
            }
            if *ty != Ty::Int && Ty::Int.wrap(*v) == *v {
                out.push(Expr::Const(*v, Ty::Int));
            }
            return out;
        }
        Expr::Var(..) => {
            out.push(Expr::Const(0, t));
            return out;
        }
        _ => {}
    }
    out.push(Expr::Const(0, t));
    out.push(Expr::Const(1, t));
    match e {
        Expr::Unary(op, a) => {
            out.push((**a).clone());
            for v in expr_variants(a) {
                out.push(Expr::Unary(*op, Box::new(v)));
            }
        }
        Expr::Cast(ty, a) => {
            out.push((**a).clone());
            for v in expr_variants(a) {
                out.push(Expr::Cast(*ty, Box::new(v)));
            }
        }
        Expr::Bin(op, a, b) => {
            out.push((**a).clone());
            out.push((**b).clone());
            for v in expr_variants(a) {
                out.push(Expr::Bin(*op, Box::new(v), b.clone()));
            }
            for v in expr_variants(b) {
                out.push(Expr::Bin(*op, a.clone(), Box::new(v)));
            }
        }
        Expr::Ite(c, a, b) => {
            out.push((**a).clone());
            out.push((**b).clone());
            for v in expr_variants(c) {
                out.push(Expr::Ite(Box::new(v), a.clone(), b.clone()));
            }
            for v in expr_variants(a) {
                out.push(Expr::Ite(c.clone(), Box::new(v), b.clone()));
            }
            for v in expr_variants(b) {
                out.push(Expr::Ite(c.clone(), a.clone(), Box::new(v)));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::gen::generate;

    #[test]
    fn minimizes_to_the_statement_that_matters() {
        // The "failure": the program still contains a check comparing against 7.
        let mut p = generate(11).program;
        p.main.push(Stmt::Check(
            Check::Assert,
            Expr::bin(BOp::Ne, Expr::int(7), Expr::int(8)),
        ));
        let has7 = |p: &Program| p.render().contains("(7 != ");
        let (m, spent) = minimize(&p, 10_000, has7);
        assert!(has7(&m));
        assert!(spent > 0);
        assert!(m.funcs.is_empty() && m.globals.is_empty(), "{}", m.render());
        assert_eq!(m.main.len(), 1, "{}", m.render());
    }

    #[test]
    fn every_valid_variant_of_generated_programs_parses() {
        for seed in 0..12 {
            let p = generate(seed).program;
            for (k, q) in variants(&p).into_iter().filter(valid).enumerate() {
                if k % 7 != 0 {
                    continue;
                }
                let text = q.render();
                let r = crate::frontend::parse_program("t.c", &text);
                // A break or continue moved out of its loop is the only expected failure.
                if let Err(d) = r {
                    assert!(
                        d.iter()
                            .any(|d| d.message.contains("break") || d.message.contains("continue")),
                        "seed {seed}: {d:?}\n{text}"
                    );
                }
            }
        }
    }
}
