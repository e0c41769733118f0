//! Short texts for the campaign's lines and findings, and the seed of each program.

use cpa_engine::fuzz::Rng;

pub(super) fn short(presets: &[String]) -> String {
    if presets.len() == 1 {
        presets[0].clone()
    } else {
        format!("{}-presets", presets.len())
    }
}

/// At most `n` characters of `s` on one line (a solver's reason can span lines, and a
/// finding's header is C comments: a line break would end one).
pub(super) fn clip(s: &str, n: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() <= n {
        s
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// The generator's seed of program `index` of the campaign `seed`.
pub fn program_seed(seed: u64, index: u64) -> u64 {
    Rng::derive(seed, index).next_u64()
}
