// MENDED (2026-11-29, commits a551f69 and the preset change after it): theta-pred-bw answers
// FALSE in 0.07 s (3 refinements); its search is now ERR_DFS (see below).
// Found 2026-11-27 by hand: theta-pred-bw runs for minutes without a verdict while its
// memory grows (6 GB after 3 min at first; 44 % of the time went into the texts of abstract
// states, fixed by MAX_OPTIMIZED_SUPPORT in predicate/table.rs: now 0.5 GB after 100 s). Its
// whole backward interpolants on the branch where x starts at 0 (x stays even) encode the
// wrap-around case by case and grow with every refinement; splitting interpolants over 500
// nodes into atoms kept 1.2 GB after 400 s and no verdict, and changed the preset's runs
// (gcd: 525 -> 1200 queries), so it was not kept. predicate-sbe stops at its query limit
// (200,000) after 58 s (x <= 0, x <= 2, x <= 10, ... without end). Every other preset: FALSE
// in < 1 s. Wanted: a memory bound that ends such a run with UNKNOWN.
// 2026-11-28 (commit 630defd): it ends, UNKNOWN "state limit of 100000 reached" after 123
// refinements (188 predicates, 40,649 queries) in 635 s alone, 0.9 GB peak (14 GB after 10 min
// before). Memory went into the query cache (now at most 2,000,000 term nodes), unclipped DNF
// labels of abstraction states (142 KB each) and the predicate lists of abstraction events
// (now 3,000 bytes each). Still slow: the refinement adds x = 0, 2, 4, ... one by one.
// verdict: false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  if (__VERIFIER_nondet_int()) {
    x = 1;
  }
  while (__VERIFIER_nondet_int() > 5) {
    x = x + 2;
  }
  if (!__VERIFIER_nondet_int()) {
    x = x + 10;
  }
  if (x == 15) reach_error();
  return 0;
}
