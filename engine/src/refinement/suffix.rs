//! The latest state of an infeasible prefix from which the rest contradicts on its own.
//!
//! Value and symbolic interpolation (the efficient-CEGAR paper's Algorithm 2, the
//! symbolic-execution thesis' Algorithms 6 and 7) compute Γi from the post of Γ(i-1) by
//! dropping, one trial (a replay of the rest of the prefix) each, what the rest does not
//! need. Where the rest `steps[i..=m]` contradicts from ⊤ (nothing known), every trial
//! succeeds (the posts are monotone) and Γi = ⊤; on a long path (a loop unrolled a thousand
//! times whose contradiction lies in its last iteration) those trials cost a replay of the
//! rest for every state, quadratic in the length.
//!
//! [`contradicting_suffix`] finds instead the latest `j` whose rest contradicts from ⊤ with
//! O(log(m - j)) replays of at most 2(m - j) edges each, searching from the end (galloping,
//! then bisection). Γ0 .. Γj = ⊤ is then inductive whatever the posts are (⊤ holds after any
//! edge from ⊤) and Γj = ⊤ refutes the rest by the check itself, so the sequence stays a
//! sequence of interpolants even where an over-approximating post is not monotone; the
//! interpolation proper starts at j + 1. Where the posts are monotone, the interpolants are
//! exactly those of the trials.

use crate::smt::Result;

/// Interpolants Γ0 .. Γn of a path (`None`: ⊥, after the contradiction), and whether the
/// first ones were set to ⊤ by [`contradicting_suffix`] (only then can the trials at every
/// state refute more).
pub struct Interpolants<S> {
    pub states: Vec<Option<S>>,
    pub cut_short: bool,
}

/// The largest `j ≤ m` such that `contradicts(j)` (the rest `steps[j..=m]` contradicts from
/// ⊤), given that the whole prefix (`j = 0`) does; `contradicts` is asked only for `j ≥ 1`.
/// Bisection assumes that the answers are monotone (true up to some `j`, false after); where
/// they are not, the result is still an index whose answer was true (or 0).
pub fn contradicting_suffix(
    m: usize,
    mut contradicts: impl FnMut(usize) -> Result<bool>,
) -> Result<usize> {
    // `hi`: an index whose rest is known not to contradict (the empty rest, m + 1, at first).
    let mut hi = m + 1;
    let mut len = 1;
    let mut lo = loop {
        let j = (m + 1).saturating_sub(len);
        if j == 0 {
            break 0;
        }
        if contradicts(j)? {
            break j;
        }
        hi = j;
        len *= 2;
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if contradicts(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search finds the boundary of every monotone answer and asks only indices ≥ 1.
    #[test]
    fn finds_the_latest_contradicting_rest() {
        for m in 0..40 {
            for boundary in 0..=m {
                let mut asked = Vec::new();
                let j = contradicting_suffix(m, |j| {
                    assert!((1..=m).contains(&j), "asked {j} of 0..={m}");
                    asked.push(j);
                    Ok(j <= boundary)
                })
                .unwrap();
                assert_eq!(j, boundary, "m = {m}");
                // Galloping and bisection: logarithmic in the distance from the end.
                let d = (m + 1 - boundary) as f64;
                assert!(asked.len() as f64 <= 2.0 * d.log2() + 2.0, "{asked:?}");
            }
        }
    }

    /// With answers that are not monotone, the result is still an index answered true.
    #[test]
    fn answers_an_index_checked_true() {
        let truth = [true, false, true, false, false, true, false, false];
        let m = truth.len() - 1;
        let j = contradicting_suffix(m, |j| Ok(truth[j])).unwrap();
        assert!(truth[j]);
    }

    /// Errors of the replay (a limit) end the search.
    #[test]
    fn passes_errors_on() {
        let r = contradicting_suffix(10, |_| Err(crate::smt::EngineError::Limit("budget".into())));
        assert!(r.is_err());
    }
}
