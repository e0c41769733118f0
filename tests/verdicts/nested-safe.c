// verdict: true
// unknown-ok: kinduction bmc value symbolic theta-expl-multiseq predicate-sbe
// predicate-sbe: single-edge blocks refine this nested loop one predicate at a time, and whether it converges depends on the order of the interpolants' disjuncts: with quantifier elimination's results in the canonical order (the same natively and in the browser) it spends the 200,000-query limit; before, it proved the program in 140 s.
// BMC: the Loop-Bound CPA counts every arrival at the inner loop head (21 for n = 5), beyond the test bound k = 12, so the forward condition never holds.
// value, symbolic: unless n <= 5 is tracked, i and j take ever new values: the state space is unbounded.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  unsigned int i, j, n = __VERIFIER_nondet_uint();
  if (n > 5) return 0;
  for (i = 0; i < n; i++) {
    for (j = i; j < n; j++) {
      __VERIFIER_assert(j >= i);
    }
  }
  return 0;
}
