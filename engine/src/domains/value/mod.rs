//! Explicit-value analysis with CEGAR: the Value Analysis CPA of Beyer and Löwe, "Explicit-State
//! Software Model Checking Based on CEGAR and Interpolation" (FASE 2013), as the digest of the
//! symbolic-execution thesis (Sect. 2.4, 3.4.2) restates it, with the bounded enumeration of
//! Hajdu and Micskei, "Efficient Strategies for CEGAR-Based Model Checking" (Sect. 3.1.1,
//! Algorithm 4, `MaxEnum`).
//!
//! A state is a partial map from variable slots (a variable in one activation, as the formula
//! encoder names them, so recursion keeps frames apart) to values. The precision is the set of
//! variables tracked at each location; precision adjustment forgets every other variable
//! (the target location's precision, the efficient-CEGAR digest's pitfall 1). Merge is
//! `merge^sep`, stop is `stop^sep` with `v ⊑ v'` iff `v'` knows nothing `v` does not know.

pub mod cpa;
pub mod post;

pub use cpa::ValueCpa;

use crate::formula::Slot;
use crate::ir::VarId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// An abstract variable assignment: the known values (every other slot is unknown, ⊤).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ValueState {
    pub values: BTreeMap<Slot, i128>,
}

impl ValueState {
    /// `self ⊑ other`: every value `other` knows, `self` knows too, and equal.
    pub fn less_or_equal(&self, other: &ValueState) -> bool {
        other.values.len() <= self.values.len()
            && other
                .values
                .iter()
                .all(|(s, v)| self.values.get(s) == Some(v))
    }

    /// The restriction to the slots whose variable `keep` accepts (in place: no copy).
    pub fn restrict(mut self, keep: impl Fn(VarId) -> bool) -> ValueState {
        self.values.retain(|s, _| keep(s.var));
        self
    }
}

/// The variables tracked at each location (the precision Π = L → 2^X of value analysis).
pub type ValuePrecision = crate::cpa::LocationPrecision<VarId>;

/// How a transfer that cannot evaluate an assumption or an assignment over tracked variables
/// goes on (the efficient-CEGAR paper's `MaxEnum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum MaxEnum {
    /// `1*`: no solver, the classic value analysis (an unknown assumption keeps the state,
    /// `x == c` teaches `x = c`, an unknown assignment forgets its variable).
    NoSolver,
    /// `k`: the solver enumerates the tracked variables' values under the state and the
    /// operation; at most `k` assignments become successors, more fall back to the classic
    /// transfer. `0` is "unbounded": at most [`cpa::MAX_ENUMERATION`] (a step must end).
    Bounded(u32),
}

impl fmt::Display for MaxEnum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaxEnum::NoSolver => write!(f, "1*"),
            MaxEnum::Bounded(k) => write!(f, "{k}"),
        }
    }
}

impl TryFrom<String> for MaxEnum {
    type Error = String;
    fn try_from(s: String) -> Result<MaxEnum, String> {
        if s == "1*" {
            return Ok(MaxEnum::NoSolver);
        }
        match s.parse::<u32>() {
            Ok(k) if k <= cpa::MAX_ENUMERATION => Ok(MaxEnum::Bounded(k)),
            _ => Err(format!(
                "invalid value '{s}' for 'max-enum' (1* for no solver, or a number up to {}; 0 is as many as that)",
                cpa::MAX_ENUMERATION
            )),
        }
    }
}

impl From<MaxEnum> for String {
    fn from(m: MaxEnum) -> String {
        m.to_string()
    }
}

/// Where a variable that refinement finds needed becomes tracked (the efficient-CEGAR paper's
/// `PrecGranularity`; CPAchecker's precision sharing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrecisionScope {
    /// At the location of the interpolant only (lazy abstraction, LOCAL).
    #[default]
    Location,
    /// At every location of the function the interpolant's location belongs to.
    Function,
    /// At every location (GLOBAL).
    Global,
}

/// The configuration of the value analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueConfig {
    pub max_enum: MaxEnum,
    #[serde(default)]
    pub scope: PrecisionScope,
}

impl Default for ValueConfig {
    fn default() -> ValueConfig {
        ValueConfig {
            max_enum: MaxEnum::NoSolver,
            scope: PrecisionScope::Location,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(pairs: &[(u32, i128)]) -> ValueState {
        ValueState {
            values: pairs
                .iter()
                .map(|(v, x)| {
                    (
                        Slot {
                            var: VarId(*v),
                            instance: 0,
                        },
                        *x,
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn less_or_equal_is_knowing_more() {
        assert!(st(&[(0, 1), (1, 2)]).less_or_equal(&st(&[(0, 1)])));
        assert!(st(&[(0, 1)]).less_or_equal(&st(&[])));
        assert!(!st(&[(0, 1)]).less_or_equal(&st(&[(0, 1), (1, 2)])));
        assert!(!st(&[(0, 1)]).less_or_equal(&st(&[(0, 2)])));
    }

    #[test]
    fn max_enum_text_round_trips() {
        for t in ["1*", "0", "1", "50"] {
            let m = MaxEnum::try_from(t.to_string()).unwrap();
            assert_eq!(m.to_string(), t);
        }
        assert!(MaxEnum::try_from("x".to_string()).is_err());
        assert!(MaxEnum::try_from("-1".to_string()).is_err());
        assert!(MaxEnum::try_from("65".to_string()).is_err());
    }
}
