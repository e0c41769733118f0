//! Prints test_locks_N for the given N (used by scripts and for experiments).
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    print!("{}", cpa_engine::fuzz::generators::test_locks(n));
}
