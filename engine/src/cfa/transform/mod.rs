//! Copies of a CFA with edges added or replaced (node and edge ids of the original kept, the
//! new ones appended), for the analyses that check more than the program says.

pub mod checks;
pub mod contracts;
pub mod overflow;
