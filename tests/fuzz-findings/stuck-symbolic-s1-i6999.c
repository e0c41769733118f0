// verdict: true
// unknown-ok: impact theta-expl-multiseq execution
// fuzz: stuck from symbolic, found by `cpa fuzz --seed 1 --start 6999 --count 1`
// fuzz: symbolic: no verdict after 60 s: 351 units done, 78 solver calls; the current unit has run 59.7 s, the current solver call 59.2 s
// fuzz: minimized from 47 to 42 lines in 12 checks; verdicts now: predicate-lbe true, predicate-sbe true, predicate-abel true, impact unknown (interpolation: strategy not applicable: quantifier elimination brought more than 64 distinct atoms), bmc true, kinduction true, value true, symbolic stuck (no verdict after 60 s: 315 units done, 78 solver calls; the current unit has run 59.7 s, the current solver call 59.2 s), theta-pred-bw true, theta-expl-multiseq unknown (refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum)), portfolio true, execution unknown (the run needs single input values at line 24 (another input), and the input read at line 23 still has 18446744073709551616 values there (input splitting enumerates at most 64))
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
unsigned long g1 = 0UL;
int g2 = 0;
char f3(long p4) {
  long v5 = 16384U;
  v5 -= g2;
  return (v5 - (g2 >> 13));
}
unsigned char f6(void) {
  g2++;
  g2 = (g2 + ((0 - g2) << (g2 & 31)));
  int v7 = ((g1 * ((char)-1)) << 17);
  return g2;
}
unsigned short f8(unsigned int p9, unsigned int p10) {
  g1 = g2;
  return ((p10 != 3428216480U) || (g2 != 1963110372));
}
int main(void) {
  unsigned long long v11 = __VERIFIER_nondet_ulonglong();
  int v12 = __VERIFIER_nondet_int();
  unsigned long long v13 = __VERIFIER_nondet_ulonglong();
  v11 = v12;
  g1 = __VERIFIER_nondet_ulong();
  {
    int i14 = 0;
    while (i14 < 6) {
      g1 = __VERIFIER_nondet_ulong();
      g2 = f3(((long)(g2 <= (-1))));
      v11 = f8(((unsigned int)6), (v11 + (v12 / (-2))));
      i14 = i14 + 1;
    }
  }
  v12 = f6();
  for (int i16 = 0; i16 < 5; i16++) {
  }
  __VERIFIER_assert((v11 != 0ULL));
  return 0;
}
