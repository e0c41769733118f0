//! Traversals: free variables, substitution, renaming, sizes, conjuncts.
//!
//! Traversals memoise on node identity, so shared subterms (a DAG) are visited once.

use super::{addr_map_for, addr_set_for, AddrMap, AddrSet, Op, Sort, Term, TermKind, Var};
use std::collections::{BTreeMap, BTreeSet};

impl Term {
    /// The free variables, in name order.
    pub fn free_vars(&self) -> BTreeSet<Var> {
        let mut out = BTreeSet::new();
        let mut seen = addr_set_for(self);
        collect_free(self, &mut seen, &mut out);
        out
    }

    /// The variables occurring in the term (bound ones included), each once, in an order
    /// that depends only on the term's structure: two terms that differ only in the names of
    /// their variables list them at the same positions (for renaming to canonical names).
    pub fn vars_in_structural_order(&self) -> Vec<Var> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        self.visit(|t| {
            if let TermKind::Var(v) = t.kind() {
                if seen.insert(v.clone()) {
                    out.push(v.clone());
                }
            }
        });
        out
    }

    /// The integer literals of the term, bit-vector ones read as signed (two's complement),
    /// each value once, in an order that depends only on the term's structure (as
    /// [`Self::vars_in_structural_order`]). Integers beyond `i128` are left out.
    pub fn literals_in_structural_order(&self) -> Vec<i128> {
        let mut out: Vec<i128> = Vec::new();
        let mut seen = BTreeSet::new();
        self.visit(|t| {
            let value = match t.kind() {
                TermKind::Int(n) => i128::try_from(n).ok(),
                TermKind::BitVec { value, width } => Some(super::fold::to_signed(*value, *width)),
                _ => None,
            };
            if let Some(v) = value.filter(|v| seen.insert(*v)) {
                out.push(v);
            }
        });
        out
    }

    /// Calls `f` once on every distinct node (shared subterms once), quantifier bodies
    /// included.
    fn visit(&self, mut f: impl FnMut(&Term)) {
        self.visit_while(|t| {
            f(t);
            true
        });
    }

    /// [`Self::visit`] until `f` answers false (then the node's children are not visited);
    /// whether every node was visited.
    fn visit_while(&self, mut f: impl FnMut(&Term) -> bool) -> bool {
        let mut seen = addr_set_for(self);
        let mut stack = vec![self.clone()];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.addr()) {
                continue;
            }
            if !f(&t) {
                return false;
            }
            match t.kind() {
                TermKind::App(_, args) => stack.extend(args.iter().cloned()),
                TermKind::Quant(_, _, body) => stack.push(body.clone()),
                _ => {}
            }
        }
        true
    }

    /// Whether the term has fewer than `bound` distinct nodes: [`Self::dag_size`` < bound`,
    /// but the traversal stops at the `bound`-th node (the printer asks this of every large
    /// term, and most are nearly trees).
    pub fn dag_size_below(&self, bound: u64) -> bool {
        let mut n: u64 = 0;
        self.visit_while(|_| {
            n += 1;
            n < bound
        })
    }

    /// Number of distinct nodes (shared subterms counted once).
    pub fn dag_size(&self) -> usize {
        let mut n = 0;
        self.visit(|_| n += 1);
        n
    }

    /// An estimate of the bit-level circuit a bit-blasting solver builds for the term's
    /// multiplications and divisions, in cells of a `w`×`w` array: `w²` for a division or
    /// remainder of width `w` by a non-literal divisor, `w²/8` by a literal, `w²/4` for a
    /// product of two non-literal factors, nothing for everything else (linear in the term's
    /// size). Structurally equal subterms are counted once, as the solver shares them.
    ///
    /// Z3 4.8.12 builds these circuits before its search starts and does not check its
    /// resource limit while it does: one 64-bit signed division of two variables takes
    /// about 0.4 s and 100 MB, so a formula with 31 of them (an unrolled recursion) ran 12 s
    /// and took 1 GB under `:rlimit 30000`. The count lets the context refuse such a query
    /// by a deterministic measure ([`crate::context::SmtContext::check_sat`]).
    pub fn bit_blast_cells(&self) -> u64 {
        let mut counted = AddrSet::default();
        let mut cells: u64 = 0;
        self.visit(|t| {
            let TermKind::App(op, args) = t.kind() else {
                return;
            };
            let Sort::BitVec(w) = t.sort() else {
                return;
            };
            let square = u64::from(w) * u64::from(w);
            let literal = |i: usize| args.get(i).is_some_and(Term::is_literal);
            let c = match op {
                Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem | Op::BvSmod => {
                    if literal(0) && literal(1) {
                        0
                    } else if literal(1) {
                        square / 8
                    } else {
                        square
                    }
                }
                Op::BvMul if args.iter().filter(|a| !a.is_literal()).count() >= 2 => square / 4,
                _ => 0,
            };
            if c > 0 && counted.insert(t.0.hash) {
                cells = cells.saturating_add(c);
            }
        });
        cells
    }

    /// True if no quantifier occurs in the term.
    pub fn is_quantifier_free(&self) -> bool {
        self.visit_while(|t| !matches!(t.kind(), TermKind::Quant(..)))
    }

    /// The nonlinear integer subterms: products of two or more non-constant factors, and
    /// `div`/`mod` by a non-constant divisor.
    pub fn nonlinear_subterms(&self) -> Vec<Term> {
        let mut out = Vec::new();
        self.visit(|t| {
            if let TermKind::App(op, args) = t.kind() {
                let constant = |a: &Term| matches!(a.kind(), TermKind::Int(_));
                let nonlinear = match op {
                    Op::Mul => args.iter().filter(|a| !constant(a)).count() > 1,
                    Op::Div | Op::Mod => args.iter().skip(1).any(|a| !constant(a)),
                    _ => false,
                };
                if nonlinear && t.sort() == Sort::Int {
                    out.push(t.clone());
                }
            }
        });
        out
    }

    /// The top-level conjuncts (`and` flattened; `true` gives none).
    pub fn conjuncts(&self) -> Vec<Term> {
        junction_parts(self, &Op::And, true)
    }

    /// The top-level disjuncts (`or` flattened; `false` gives none).
    pub fn disjuncts(&self) -> Vec<Term> {
        junction_parts(self, &Op::Or, false)
    }

    /// The atoms of a Boolean formula: its maximal subterms that are not Boolean connectives,
    /// without Boolean constants, deduplicated and sorted.
    pub fn atoms(&self) -> Vec<Term> {
        let mut out = BTreeSet::new();
        let mut stack = vec![self.clone()];
        let mut seen = addr_set_for(self);
        while let Some(x) = stack.pop() {
            if !seen.insert(x.addr()) {
                continue;
            }
            match x.kind() {
                TermKind::Bool(_) => {}
                TermKind::App(op, args) => {
                    let connective =
                        matches!(op, Op::Not | Op::And | Op::Or | Op::Implies | Op::Xor)
                            || (matches!(op, Op::Eq | Op::Distinct)
                                && args.first().is_some_and(|a| a.sort() == Sort::Bool))
                            || (*op == Op::Ite && x.sort() == Sort::Bool);
                    if connective {
                        // The condition of a Boolean ite is an atom source too.
                        stack.extend(args.iter().cloned());
                    } else {
                        out.insert(x.clone());
                    }
                }
                _ if x.sort() == Sort::Bool => {
                    out.insert(x.clone());
                }
                _ => {}
            }
        }
        out.into_iter().collect()
    }

    /// Replaces free occurrences of the variables in `map` (capture-avoiding: a bound variable
    /// that would capture a free variable of a replacement is renamed). The result is rebuilt
    /// with the simplifying constructors, so substituting literals folds.
    pub fn substitute(&self, map: &BTreeMap<Var, Term>) -> Term {
        if map.is_empty() {
            return self.clone();
        }
        let mut memo = addr_map_for(self);
        subst(self, map, &mut memo)
    }

    /// The same term with the arguments of every `and` and `or` in the structural order
    /// (nothing else changes, so it is the same formula). Z3 4.8 (native) and Z3 5 (the
    /// browser) may write an equivalent result in another order; read through this, both give
    /// the same term, and a run gives the same events natively and in the browser.
    pub fn sorted_junctions(&self) -> Term {
        let mut memo = addr_map_for(self);
        sort_junctions(self, &mut memo)
    }

    /// Renames free variables: `f` returns the new name for a variable, or `None` to keep it
    /// (for SSA index shifting, e.g. `x@3` to `x@5`). Sorts are kept.
    pub fn rename(&self, f: &dyn Fn(&Var) -> Option<String>) -> Term {
        let map: BTreeMap<Var, Term> = self
            .free_vars()
            .into_iter()
            .filter_map(|v| f(&v).map(|n| (v.clone(), Term::new_var(n, v.sort))))
            .collect();
        self.substitute(&map)
    }
}

fn sort_junctions(t: &Term, memo: &mut AddrMap<Term>) -> Term {
    if let Some(r) = memo.get(&t.addr()) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::App(op, args) => {
            let mut new: Vec<Term> = args.iter().map(|a| sort_junctions(a, memo)).collect();
            if matches!(op, Op::And | Op::Or) {
                new.sort();
            }
            if new
                .iter()
                .zip(args.iter())
                .all(|(a, b)| a.addr() == b.addr())
            {
                t.clone()
            } else {
                Term::app_raw(op.clone(), new).unwrap_or_else(|_| t.clone())
            }
        }
        // Quantified bodies keep their order (quantifier elimination's results have none).
        _ => t.clone(),
    };
    memo.insert(t.addr(), r.clone());
    r
}

fn junction_parts(t: &Term, op: &Op, neutral: bool) -> Vec<Term> {
    if t.as_bool() == Some(neutral) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        match t.as_app() {
            Some((o, args)) if o == op => stack.extend(args.iter().rev().cloned()),
            _ => out.push(t),
        }
    }
    out
}

fn collect_free(t: &Term, seen: &mut AddrSet, out: &mut BTreeSet<Var>) {
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.addr()) {
            continue;
        }
        match t.kind() {
            TermKind::Var(v) => {
                out.insert(v.clone());
            }
            TermKind::App(_, args) => stack.extend(args.iter().cloned()),
            TermKind::Quant(_, bound, body) => {
                // The body's free variables minus the bound ones; a fresh `seen`, since the
                // same subterm can be free outside and bound inside.
                let mut inner = BTreeSet::new();
                collect_free(body, &mut addr_set_for(body), &mut inner);
                for v in inner {
                    if !bound.contains(&v) {
                        out.insert(v);
                    }
                }
            }
            _ => {}
        }
    }
}

fn subst(t: &Term, map: &BTreeMap<Var, Term>, memo: &mut AddrMap<Term>) -> Term {
    if let Some(r) = memo.get(&t.addr()) {
        return r.clone();
    }
    let result = match t.kind() {
        TermKind::Var(v) => map.get(v).cloned().unwrap_or_else(|| t.clone()),
        TermKind::App(op, args) => {
            let new_args: Vec<Term> = args.iter().map(|a| subst(a, map, memo)).collect();
            if new_args.iter().zip(args.iter()).all(|(n, o)| n.ptr_eq(o)) {
                t.clone()
            } else {
                Term::apply(op.clone(), new_args)
            }
        }
        TermKind::Quant(q, bound, body) => {
            let mut inner: BTreeMap<Var, Term> = map
                .iter()
                .filter(|(k, _)| !bound.contains(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let incoming: BTreeSet<Var> = inner.values().flat_map(|v| v.free_vars()).collect();
            let taken: BTreeSet<std::rc::Rc<str>> = incoming
                .iter()
                .chain(body.free_vars().iter())
                .map(|v| v.name.clone())
                .collect();
            let mut new_bound = Vec::with_capacity(bound.len());
            for b in bound.iter() {
                if incoming.iter().any(|v| v.name == b.name) {
                    let fresh = fresh_name(&b.name, &taken, &new_bound);
                    let nv = Var::new(fresh, b.sort);
                    inner.insert(b.clone(), nv.term());
                    new_bound.push(nv);
                } else {
                    new_bound.push(b.clone());
                }
            }
            let new_body = subst(body, &inner, &mut addr_map_for(body));
            Term::quant(*q, new_bound, new_body).unwrap_or_else(|_| t.clone())
        }
        _ => t.clone(),
    };
    memo.insert(t.addr(), result.clone());
    result
}

fn fresh_name(base: &str, taken: &BTreeSet<std::rc::Rc<str>>, chosen: &[Var]) -> String {
    (0u64..)
        .map(|i| format!("{base}!b{i}"))
        .find(|n| !taken.iter().any(|t| &**t == n) && !chosen.iter().any(|v| &*v.name == n))
        .unwrap_or_else(|| format!("{base}!b"))
}

/// The sort-annotated variables of several terms, merged (used for shared-variable sets).
pub fn vars_of<'a>(terms: impl IntoIterator<Item = &'a Term>) -> BTreeSet<Var> {
    let mut out = BTreeSet::new();
    for t in terms {
        out.extend(t.free_vars());
    }
    out
}

/// Names that occur with two different sorts among `vars` (an error for declarations).
pub fn sort_conflicts(vars: &BTreeSet<Var>) -> Vec<(String, Sort, Sort)> {
    let mut by_name: BTreeMap<&str, Sort> = BTreeMap::new();
    let mut out = Vec::new();
    for v in vars {
        if let Some(s) = by_name.insert(&v.name, v.sort) {
            if s != v.sort {
                out.push((v.name.to_string(), s, v.sort));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonlinear_subterms_are_products_of_variables_and_divisions_by_them() {
        let x = Term::new_var("x", Sort::Int);
        let y = Term::new_var("y", Sort::Int);
        let linear = Term::add2(
            Term::mul(Term::int(3), x.clone()),
            Term::div(y.clone(), Term::int(2)),
        );
        assert!(linear.nonlinear_subterms().is_empty());
        let square = Term::mul(x.clone(), x.clone());
        assert_eq!(square.nonlinear_subterms(), vec![square.clone()]);
        let by_var = Term::eq(Term::div(Term::int(7), y.clone()), x.clone());
        assert_eq!(by_var.nonlinear_subterms().len(), 1);
    }

    /// Two orders of the same disjunctions and conjunctions (as Z3 4.8 and Z3 5 print one
    /// result) become one term; nothing but the order of `and` and `or` changes.
    #[test]
    fn sorted_junctions_make_orders_agree() {
        let x = Term::new_var("x", Sort::Int);
        let y = Term::new_var("y", Sort::Int);
        let (a, b, c) = (
            Term::eq(x.clone(), Term::int(28)),
            Term::le(y.clone(), Term::int(3)),
            Term::gt(x.clone(), y.clone()),
        );
        let raw = |op: Op, args: Vec<Term>| Term::app_raw(op, args).unwrap();
        let one = raw(
            Op::Or,
            vec![a.clone(), raw(Op::And, vec![b.clone(), c.clone()])],
        );
        let two = raw(
            Op::Or,
            vec![raw(Op::And, vec![c.clone(), b.clone()]), a.clone()],
        );
        assert_ne!(one, two);
        assert_eq!(one.sorted_junctions(), two.sorted_junctions());
        let s = one.sorted_junctions();
        assert_eq!(s.sorted_junctions(), s);
        // Not commutative in general, so left alone: the arguments of `=>` keep their order.
        let imp = raw(Op::Implies, vec![b.clone(), a.clone()]);
        assert_eq!(imp.sorted_junctions(), imp);
        assert_eq!(s.free_vars(), one.free_vars());
    }
}
