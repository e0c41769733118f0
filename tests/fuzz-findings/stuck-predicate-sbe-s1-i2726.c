// verdict: false
// fuzz: stuck from predicate-sbe, found by `cpa fuzz --seed 1 --start 2726 --count 1`
// fuzz: predicate-sbe: no verdict after 60 s: 87 units done, 104 solver calls; the current unit has run 59.6 s, the current solver call 59.6 s
// fuzz: minimized from 33 to 27 lines in 12 checks; verdicts now: predicate-lbe false, predicate-sbe false, predicate-abel false, impact false, bmc false, kinduction false, value false, symbolic false, theta-pred-bw false, theta-expl-multiseq false, portfolio false
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
unsigned char g1 = ((unsigned char)0);
int g2 = 128;
int f3(int n4, int p5, _Bool p6) {
  if ((n4 <= 0)) {
    return p5;
  }
  {
    int i7 = 0;
    L8:;
      g1 = p6;
      p5 = (p5 * (g1 < ((1 < (-1)) ? 6 : g2)));
    i7++;
    if (i7 < 1) goto L8;
  }
  int r9 = 0;
  r9 = f3((n4 - 1), ((int)(p5 + p5)), ((_Bool)(p6 <= g1)));
  g2 += 2147483647;
  return ((g2 * g2) * (n4 * 10));
}
int main(void) {
  int v10 = __VERIFIER_nondet_int();
  f3((-1), (7 % (-3)), ((_Bool)(!(10 + v10))));
  __VERIFIER_assert((v10 != 1));
  return 0;
}
