//! The record of a run between two arrivals at a loop head: the edges executed and the loops
//! skipped, which [`crate::concrete::accel::symexec`] executes again over affine forms.

use crate::cfa::{EdgeId, NodeId};
use crate::ir::VarId;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Values of the globals and of the current frame's locals.
pub type Snapshot = BTreeMap<VarId, i128>;

/// One entry of the record of a run: an executed edge, or an accelerated loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Edge(EdgeId),
    Segment(Rc<Segment>),
}

/// Iterations of a loop that were skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub head: NodeId,
    /// One iteration, from one arrival at the head to the next (the one executed before the
    /// jump).
    pub body: Rc<[Item]>,
    /// The change of each variable (globals and the head's frame) per iteration.
    pub delta: BTreeMap<VarId, i128>,
    /// The iterations skipped.
    pub skipped: i128,
    /// The state at the head before and after the skipped iterations.
    pub before: Snapshot,
    pub after: Snapshot,
}
