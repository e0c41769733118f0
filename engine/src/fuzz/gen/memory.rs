//! Shapes with arrays, pointers and structs (`cpa fuzz --memory`): each reads outer variables
//! of one type, works through memory and leaves its result in a fresh outer variable, which
//! the planted check may then test; so the verdicts depend on the memory model being exact.
//! Every index is reduced into its array first (no undefined behaviour). Inputs go into named
//! variables first (a counterexample prints their values, so its replay can use them).

use super::Gen;
use crate::fuzz::ast::{Stmt, Ty};

impl Gen {
    /// One of the memory shapes, declaring `x` (its result) in the current scope.
    pub(super) fn memory_shape(&mut self, x: String) -> Vec<Stmt> {
        let ty = *self.rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::UInt,
            Ty::Char,
            Ty::UChar,
            Ty::Short,
            Ty::LLong,
        ]);
        let t = ty.c_name();
        // Up to two outer variables of that type to read (else constants).
        let readable: Vec<String> = self
            .visible()
            .into_iter()
            .filter(|v| v.ty == ty)
            .map(|v| v.name)
            .collect();
        let mut reads = Vec::new();
        let mut operand = |g: &mut Gen| -> String {
            if !readable.is_empty() && g.rng.chance(60) {
                let v = readable[g.rng.below(readable.len())].clone();
                reads.push(v.clone());
                v
            } else {
                g.rng.range(-3, 9).to_string()
            }
        };
        let (a, b) = (operand(self), operand(self));
        let c = self.rng.range(1, 5);
        let n = self.rng.range(2, 5);
        let id = self.fresh("m");
        let mut nondet = false;
        let lines: Vec<String> = match self.rng.below(5) {
            0 => {
                // An array, a nondeterministic index, a pointer into the array.
                nondet = true;
                vec![
                    format!("{t} a{id}[{n}] = {{({t}) {a}, ({t}) {b}}};"),
                    format!("int n{id} = __VERIFIER_nondet_int();"),
                    format!("unsigned k{id} = (unsigned) n{id} % {n}U;"),
                    format!("a{id}[k{id}] = a{id}[k{id}] + {c};"),
                    format!("{t} *p{id} = &a{id}[(k{id} + 1U) % {n}U];"),
                    format!("*p{id} = *p{id} * 2 - a{id}[0];"),
                    format!("{x} = a{id}[0] + a{id}[{}] - *p{id};", n - 1),
                ]
            }
            1 => {
                // A struct, a pointer to it, a copy.
                vec![
                    format!("struct S{id} {{ {t} f; {t} g; }} s{id} = {{ ({t}) {a}, ({t}) {b} }};"),
                    format!("struct S{id} *q{id} = &s{id};"),
                    format!("q{id}->f = q{id}->f + {c};"),
                    format!("s{id}.g = s{id}.f - q{id}->g;"),
                    format!("struct S{id} t{id} = s{id};"),
                    format!("t{id}.f++;"),
                    format!("{x} = t{id}.f + s{id}.g - q{id}->f;"),
                ]
            }
            2 => {
                // A swap through pointers.
                vec![
                    format!("{t} u{id} = ({t}) {a}, w{id} = ({t}) {b};"),
                    format!("{t} *p{id} = &u{id}, *q{id} = &w{id};"),
                    format!("{t} h{id} = *p{id};"),
                    format!("*p{id} = *q{id};"),
                    format!("*q{id} = h{id};"),
                    format!("{x} = u{id} - w{id} * {c};"),
                ]
            }
            3 => {
                // An array of structs filled in a loop.
                nondet = true;
                vec![
                    format!("struct R{id} {{ {t} f; {t} g; }} r{id}[{n}];"),
                    format!("for (int i{id} = 0; i{id} < {n}; i{id}++) {{ r{id}[i{id}].f = ({t}) (i{id} * {c}); r{id}[i{id}].g = ({t}) {a}; }}"),
                    format!("int n{id} = __VERIFIER_nondet_int();"),
                    format!("unsigned k{id} = (unsigned) n{id} % {n}U;"),
                    format!("struct R{id} *e{id} = &r{id}[k{id}];"),
                    format!("e{id}->g = e{id}->g + e{id}->f;"),
                    format!("{x} = r{id}[k{id}].g + r{id}[{}].f;", n - 1),
                ]
            }
            _ => {
                // A pointer to a pointer, and pointer arithmetic within an array.
                vec![
                    format!("{t} b{id}[{n}] = {{0}};"),
                    format!("{t} *p{id} = b{id};"),
                    format!("{t} **pp{id} = &p{id};"),
                    format!("**pp{id} = ({t}) {a};"),
                    format!("*pp{id} = *pp{id} + 1;"),
                    format!("**pp{id} = ({t}) ({b} + {c});"),
                    format!("{x} = b{id}[0] + b{id}[1] * 2 + (p{id} - b{id});"),
                ]
            }
        };
        reads.sort();
        reads.dedup();
        self.declare(&x, ty, true);
        vec![
            Stmt::Decl {
                name: x.clone(),
                ty,
                init: Some(crate::fuzz::ast::Expr::Const(0, ty)),
            },
            Stmt::Memory {
                lines,
                reads,
                writes: vec![x],
                nondet,
            },
        ]
    }
}
