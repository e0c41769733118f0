//! What the views show, computed without a browser: the CFA report's model, formulas in
//! mathematical notation, DOT texts, the LBE replay, exports, the knob panel's rows and the
//! gallery.

pub mod dot;
pub mod examples;
pub mod formula;
pub mod knobs;
pub mod replay;
