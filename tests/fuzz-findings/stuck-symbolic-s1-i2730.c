// verdict: true
// unknown-ok: bmc kinduction value theta-expl-multiseq
// fuzz: stuck from symbolic, found by `cpa fuzz --seed 1 --start 2730 --count 1`
// fuzz: symbolic: no verdict after 60 s: 316 units done, 244 solver calls; the current unit has run 59.6 s, the current solver call 37.8 s
// fuzz: minimized from 26 to 23 lines in 12 checks; verdicts now: predicate-lbe true, predicate-sbe true, predicate-abel true, impact true, bmc unknown (state limit of 10000 reached), kinduction unknown (state limit of 10000 reached), value unknown (refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum)), symbolic stuck (no verdict after 60 s: 492 units done, 277 solver calls; the current unit has run 54.6 s, the current solver call 54.5 s), theta-pred-bw true, theta-expl-multiseq unknown (refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum)), portfolio true
extern void __VERIFIER_assert(int cond);
extern char __VERIFIER_nondet_char(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
long long g1 = 128LL;
int main(void) {
  char v2 = __VERIFIER_nondet_char();
  unsigned long long v3 = 0ULL;
  unsigned long v4 = __VERIFIER_nondet_ulong();
  int v5 = (8 + (v2 - v4));
  for (int i6 = 0; i6 < 8; i6++) {
    v3 = v4;
    {
      int i7 = 0;
      L8:;
        v5 = i6;
        g1 = (((~i6) - ((-2147483647 - 1) - v4)) << 26);
      i7++;
      if (i7 < 4) goto L8;
    }
  }
  __VERIFIER_assert((g1 != 9223372036854775807LL));
  return 0;
}
