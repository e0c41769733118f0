//! A data CPA for the unit tests of the CPA core, CPA++, pruning and the CEGAR loop: it keeps
//! no data (every state covers every other at the same control state, so each reachable
//! control state is reached once), and its precision blocks CFA edges at locations: a
//! successor along an edge the precision lists at the source location does not exist. A
//! refinement that blocks the edge into an error location therefore removes the error path,
//! which is what the CEGAR loop needs to be exercised without a solver.

use crate::cfa::{Cfa, Edge};
use crate::cpa::control::ControlState;
use crate::cpa::{Adjusted, Cpa, Describe, LocationPrecision, MergeKind, StopKind, Successors};
use crate::events::StateKind;
use crate::frontend::parse_program;
use crate::smt::{Result, Smt};

/// Blocked edge ids by location.
pub type Blocked = LocationPrecision<u32>;

/// See the module documentation. `merge_join`: states at the same control state are merged
/// (the count of merges is the state), instead of being covered.
#[derive(Default)]
pub struct Blocks {
    pub merge_join: bool,
    pub transfers: usize,
}

impl Cpa for Blocks {
    /// How many states were merged into this one.
    type State = u32;
    type Prec = Blocked;

    fn initial_state(&mut self, _ctl: &ControlState) -> u32 {
        0
    }

    fn transfer(
        &mut self,
        _smt: &mut dyn Smt,
        _s: &u32,
        edge: &Edge,
        from: &ControlState,
        _to: &ControlState,
        prec: &Blocked,
    ) -> Result<Successors<u32>> {
        self.transfers += 1;
        Ok(if prec.contains(from.location, &edge.id.0) {
            Successors::none()
        } else {
            Successors::one(0)
        })
    }

    fn adjust(
        &mut self,
        _smt: &mut dyn Smt,
        s: u32,
        _ctl: &ControlState,
        _prec: &Blocked,
    ) -> Result<Option<Adjusted<u32>>> {
        Ok(Some(Adjusted {
            state: s,
            abstraction: None,
        }))
    }

    fn merge_kind(&self) -> MergeKind {
        if self.merge_join {
            MergeKind::Join
        } else {
            MergeKind::Sep
        }
    }

    fn merge(&mut self, _smt: &mut dyn Smt, new: &u32, reached: &u32) -> Result<Option<u32>> {
        Ok(Some(new.max(reached) + 1))
    }

    fn stop_kind(&self) -> StopKind {
        StopKind::Sep
    }

    fn may_cover(&self, _s: &u32) -> bool {
        true
    }

    fn covered_by(&mut self, _smt: &mut dyn Smt, s: &u32, by: &u32) -> Result<bool> {
        Ok(s <= by)
    }
}

impl Describe for Blocks {
    fn describe(&self, s: &u32) -> (StateKind, String) {
        (StateKind::Plain, s.to_string())
    }
}

/// The CFA of `src` (which must parse).
pub fn cfa(src: &str) -> Cfa {
    parse_program("t.c", src).expect("parses").cfa
}

/// A program with a loop, a branch and an error location behind a condition.
pub const LOOP_WITH_ERROR: &str = "extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int i = 0;
  int n = __VERIFIER_nondet_int();
  while (i < n) {
    i++;
  }
  if (i < 0) reach_error();
  return 0;
}
";

/// The same program without an error location.
pub const LOOP_SAFE: &str = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int i = 0;
  int n = __VERIFIER_nondet_int();
  while (i < n) {
    i++;
  }
  return i;
}
";
