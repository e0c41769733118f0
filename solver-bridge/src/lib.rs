//! Solver bridge (see ARCHITECTURE.md).
