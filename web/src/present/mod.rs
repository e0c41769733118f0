//! What the views show, computed without a browser: the CFA report's model, formulas in
//! mathematical notation, DOT texts, the LBE replay, exports, the knob panel's rows, values
//! grouped by the objects of memory and the gallery.

pub mod dot;
pub mod examples;
pub mod formula;
pub mod knobs;
pub mod lessons;
pub mod memory;
pub mod replay;
