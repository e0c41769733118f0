// verdict: true
// unknown-ok: kinduction bmc value symbolic theta-expl-multiseq predicate-sbe
// predicate-sbe: single-edge blocks refine this nested loop one predicate at a time, and whether it converges depends on which conjuncts of the quantifier-elimination interpolants generalisation keeps: it proves the program, but slowly (198 s, 8 refinements, 147,642 solver queries, with another run beside it): the test may stop it at its limits.
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
