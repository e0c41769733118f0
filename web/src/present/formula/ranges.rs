//! What is known of the values where a formula is shown, and the wrap-arounds it rules out.

use super::rewrite::{literal, wrapped};
use super::sexp::{split_index, Sx};

/// What is known of the values where a formula is shown: the range of each variable (by its
/// unindexed SMT name, `main::x`) at the formula's location, from the engine's octagon
/// analysis (`CfaReport::ranges`). Sound: every value an execution has there lies in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges(pub(super) std::collections::BTreeMap<String, (i128, i128)>);

impl Ranges {
    pub fn new(ranges: &[cpa_engine::report::Range]) -> Ranges {
        Ranges(
            ranges
                .iter()
                .filter_map(|r| Some((r.var.clone(), (r.lo.parse().ok()?, r.hi.parse().ok()?))))
                .collect(),
        )
    }

    /// The ranges at location `l` of `cfa` (none known: empty).
    pub fn at(cfa: &crate::protocol::Graph, l: u32) -> Ranges {
        cfa.node(l)
            .map(|n| Ranges::new(&n.ranges))
            .unwrap_or_default()
    }

    pub(super) fn of_atom(&self, atom: &str) -> Option<(i128, i128)> {
        let (bare, _) = split_index(atom.trim_matches('|'));
        // The activations of a recursive function (`f::x@2`) share the function's ranges.
        let base = match bare.rsplit_once('@') {
            Some((b, i)) if i.chars().all(|c| c.is_ascii_digit()) => b,
            _ => bare,
        };
        self.0.get(base).copied()
    }

    /// The values `sx` can have (interval arithmetic; `None`: not known).
    fn of(&self, sx: &Sx, depth: usize) -> Option<(i128, i128)> {
        if depth > 40 {
            return None;
        }
        if let Some(v) = literal(sx) {
            return Some((v, v));
        }
        let items = match sx {
            Sx::Atom(a) => return self.of_atom(a),
            Sx::List(items) => items,
        };
        let add = |(a, b): (i128, i128), (c, d): (i128, i128)| {
            Some((a.checked_add(c)?, b.checked_add(d)?))
        };
        let neg = |(a, b): (i128, i128)| Some((b.checked_neg()?, a.checked_neg()?));
        match &items[..] {
            [Sx::Atom(op), args @ ..] if op == "+" && !args.is_empty() => args
                .iter()
                .try_fold((0, 0), |acc, a| add(acc, self.of(a, depth + 1)?)),
            [Sx::Atom(op), x] if op == "-" => neg(self.of(x, depth + 1)?),
            [Sx::Atom(op), x, rest @ ..] if op == "-" => {
                rest.iter().try_fold(self.of(x, depth + 1)?, |acc, a| {
                    add(acc, neg(self.of(a, depth + 1)?)?)
                })
            }
            [Sx::Atom(op), k, x] | [Sx::Atom(op), x, k] if op == "*" && literal(k).is_some() => {
                let k = literal(k)?;
                let (a, b) = self.of(x, depth + 1)?;
                let (p, q) = (a.checked_mul(k)?, b.checked_mul(k)?);
                Some((p.min(q), p.max(q)))
            }
            [Sx::Atom(op), c, a, b] if op == "ite" => {
                let w = wrapped(c, a, b)?;
                match self.of(w.value, depth + 1) {
                    Some((p, q)) if p >= w.lo && q <= w.hi => Some((p, q)),
                    _ => Some((w.lo, w.hi)),
                }
            }
            _ => None,
        }
    }

    /// `sx` with every wrap-around whose value cannot leave its type's range here replaced
    /// by the value (exact at every state the ranges describe). `budget` bounds the nodes
    /// visited (a shared subterm can make the tree far larger than the text).
    pub(super) fn unwrap(&self, sx: &Sx, budget: &mut usize) -> Option<Sx> {
        *budget = budget.checked_sub(1)?;
        let Sx::List(items) = sx else {
            return Some(sx.clone());
        };
        if let [Sx::Atom(op), c, a, b] = &items[..] {
            if op == "ite" {
                if let Some(w) = wrapped(c, a, b) {
                    if matches!(self.of(w.value, 0), Some((p, q)) if p >= w.lo && q <= w.hi) {
                        return self.unwrap(w.value, budget);
                    }
                }
            }
        }
        items
            .iter()
            .map(|x| self.unwrap(x, budget))
            .collect::<Option<Vec<_>>>()
            .map(|v| Sx::List(v.into()))
    }
}
