//! The abstract domains of the CEGAR analyses, each a CPA in a folder of its own with its
//! transfer relation beside it (CPAchecker's packaging): predicate abstraction, explicit
//! values, symbolic execution, and the composite of values and predicates.

pub mod predicate;
pub mod symbolic;
pub mod value;
pub mod value_predicate;
