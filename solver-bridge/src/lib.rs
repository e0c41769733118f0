//! Solver bridge: the one door to SMT solvers.
//!
//! Layers, bottom up:
//! - [`term`]: immutable SMT terms with smart constructors, SMT-LIB printing;
//!   [`parse`]: SMT-LIB text to terms;
//! - [`solver`]: the synchronous [`Solver`](solver::Solver) trait (SMT-LIB text in, reply text
//!   out) and its backends: native `z3 -in`, the browser worker's Z3, recording and replay;
//! - [`context`]: [`SmtContext`](context::SmtContext), the typed layer (declare, assert,
//!   push/pop, check-sat, models, unsat cores, quantifier elimination);
//! - [`itp`]: interpolation computed in-house (Farkas, quantifier elimination) and its checker.

pub mod bench;
pub mod context;
pub mod itp;
pub mod parse;
pub mod sexp;
pub mod solver;
pub mod term;
