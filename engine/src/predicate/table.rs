//! The predicates of a run: unindexed atoms, numbered in discovery order. Predicate i is BDD
//! variable i, so abstraction formulas of all states share one BDD vocabulary.

use crate::smt::{EngineError, Result};
use biodivine_lib_bdd::{Bdd, BddPointer, BddVariable, BddVariableSet};
use solver_bridge::term::Term;
use std::collections::BTreeMap;

/// BDD variables reserved up front (biodivine-lib-bdd fixes the variable count of a set).
pub const MAX_PREDICATES: u16 = 4096;

pub struct PredicateTable {
    terms: Vec<Term>,
    index: BTreeMap<Term, usize>,
    vars: BddVariableSet,
}

impl Default for PredicateTable {
    fn default() -> Self {
        PredicateTable::new()
    }
}

impl PredicateTable {
    pub fn new() -> PredicateTable {
        PredicateTable {
            terms: Vec::new(),
            index: BTreeMap::new(),
            vars: BddVariableSet::new_anonymous(MAX_PREDICATES),
        }
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn get(&self, i: usize) -> &Term {
        &self.terms[i]
    }

    /// The id of `p`, adding it if new.
    pub fn intern(&mut self, p: Term) -> Result<usize> {
        if let Some(i) = self.index.get(&p) {
            return Ok(*i);
        }
        if self.terms.len() >= MAX_PREDICATES as usize {
            return Err(EngineError::Limit(format!(
                "more than {MAX_PREDICATES} predicates"
            )));
        }
        self.terms.push(p.clone());
        self.index.insert(p, self.terms.len() - 1);
        Ok(self.terms.len() - 1)
    }

    pub fn bdd_true(&self) -> Bdd {
        self.vars.mk_true()
    }

    pub fn bdd_false(&self) -> Bdd {
        self.vars.mk_false()
    }

    pub fn literal(&self, i: usize, value: bool) -> Bdd {
        self.vars.mk_literal(BddVariable::from_index(i), value)
    }

    /// The BDD as a term over the predicates (Shannon expansion, shared subterms).
    pub fn bdd_to_term(&self, b: &Bdd) -> Term {
        if b.is_true() {
            return Term::tt();
        }
        if b.is_false() {
            return Term::ff();
        }
        let mut memo: Vec<Option<Term>> = vec![None; b.size()];
        memo[0] = Some(Term::ff());
        memo[1] = Some(Term::tt());
        for p in b.pointers() {
            if p.is_terminal() {
                continue;
            }
            let get = |q: BddPointer, memo: &Vec<Option<Term>>| {
                memo[q.to_index()].clone().unwrap_or_else(Term::ff)
            };
            let hi = get(b.high_link_of(p), &memo);
            let lo = get(b.low_link_of(p), &memo);
            let v = self.terms[b.var_of(p).to_index()].clone();
            let t = match (hi.as_bool(), lo.as_bool()) {
                (Some(true), Some(false)) => v,
                (Some(false), Some(true)) => Term::not(v),
                (Some(true), _) => Term::or2(v, lo),
                (Some(false), _) => Term::and2(Term::not(v), lo),
                (_, Some(true)) => Term::or2(Term::not(v), hi),
                (_, Some(false)) => Term::and2(v, hi),
                _ => Term::ite(v, hi, lo),
            };
            memo[p.to_index()] = Some(t);
        }
        memo[b.root_pointer().to_index()]
            .clone()
            .unwrap_or_else(Term::ff)
    }

    /// A readable DNF of the BDD: `p1 && !p2 || p3`.
    pub fn bdd_text(&self, b: &Bdd) -> String {
        if b.is_true() {
            return "true".into();
        }
        if b.is_false() {
            return "false".into();
        }
        let cubes: Vec<String> = b
            .to_optimized_dnf()
            .iter()
            .map(|c| {
                let lits: Vec<String> = c
                    .to_values()
                    .into_iter()
                    .map(|(v, val)| {
                        let t = self.terms[v.to_index()].to_string();
                        if val {
                            t
                        } else {
                            format!("(not {t})")
                        }
                    })
                    .collect();
                if lits.len() == 1 {
                    lits[0].clone()
                } else {
                    format!("(and {})", lits.join(" "))
                }
            })
            .collect();
        if cubes.len() == 1 {
            cubes[0].clone()
        } else {
            format!("(or {})", cubes.join(" "))
        }
    }
}
