//! Everything a verdict rests on: the certificate check of a TRUE, the induction check of
//! invariants over blocks, every run executed, function contracts, Houdini's reduction of
//! candidate invariants, and the concrete replay of a FALSE's counterexample.

pub mod certificate;
pub mod contracts;
pub mod counterexample;
pub mod houdini;
pub mod runs;
