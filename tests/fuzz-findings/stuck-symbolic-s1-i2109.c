// verdict: true
// unknown-ok: predicate-sbe impact bmc kinduction value theta-expl-multiseq
// fuzz: stuck from symbolic, found by `cpa fuzz --seed 1 --start 2109 --count 1`
// fuzz: symbolic: no verdict after 60 s: 197 units done, 322 solver calls; the current unit has run 59.8 s, the current solver call 1.8 s
// fuzz: minimized from 64 to 41 lines in 12 checks; verdicts now: predicate-lbe true, predicate-sbe unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: unknown function symbol bvudiv_i)): (goals (goal (= |g1#1| #x0000000000000000) (= |g2#1| #x0000000000000000) (bvule (bvadd |g1#1| |main::v12#1|) |g2#1|) (= |f3::p4#1| ((_ extract 31 0) (bvudiv_i |g2#1| #xfffffffffffffffd))) (= |f3::p5#1| (bvadd #x7ffffffe ((_ extract 31 0) |g2#1|))) (= |f3::i6#1| #x00000000) :precision precise :depth 1) )), predicate-abel true, impact unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: unknown function symbol bvudiv_i)): (goals (goal (= |g1#1| #x0000000000000000) (= |g2#1| #x0000000000000000) (= |f3::p4#1| ((_ extract 31 0) (bvudiv_i |g2#1| #xfffffffffffffffd))) (= |f3::p5#1| (bvadd #x7ffffffe ((_ extract 31 0) |g2#1|))) (= |f3::i6#1| #x00000000) (bvule |g1#1| |g2#1|) :precision precise :depth 1) )), bmc unknown (solver: canceled), kinduction unknown (solver: canceled), value unknown (refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum) (50 error paths undecided)), symbolic stuck (no verdict after 60 s: 195 units done, 310 solver calls; the current unit has run 59.7 s, the current solver call 4.0 s), theta-pred-bw true, theta-expl-multiseq unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: unknown function symbol bvudiv_i)): (goals (goal (= |g1#1| #x0000000000000000) (= |g2#1| #x0000000000000000) (bvule |g1#1| |g2#1|) (= |f3::p4#1| ((_ extract 31 0) (bvudiv_i |g2#1| #xfffffffffffffffd))) (= |f3::i6#1| #x00000000) :precision precise :depth 1) )), portfolio true
extern void reach_error(void);
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern void assume_abort_if_not(int cond);
extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
long long g1 = 0LL;
unsigned long long g2 = 0ULL;
int f3(unsigned long p4, int p5) {
  {
    int i6 = 0;
    L9:;
      int v7 = __VERIFIER_nondet_int();
      assume_abort_if_not(((v7 >= 0) && (v7 <= 255)));
      unsigned char v8 = v7;
      __VERIFIER_assert((v8 == v7));
      g1 *= g1;
    i6++;
    if (i6 < 6) goto L9;
  }
  if (((((g2 > (-4)) ? p4 : g2) > 0ULL) || (32767 != (p5 - p5)))) {
    {
      int i10 = __VERIFIER_nondet_int();
      while (i10) {
        if (!(g1 != 9223372036854775807LL)) reach_error();
        g2 = __VERIFIER_nondet_ulonglong();
        i10 = __VERIFIER_nondet_int();
      }
    }
  }
  return ((g1 - p5) - (g1 % (-3)));
}
int main(void) {
  long v11 = __VERIFIER_nondet_long();
  unsigned long long v12 = __VERIFIER_nondet_ulonglong();
  __VERIFIER_assume(((g1 + v12) <= g2));
  v11 = f3((g2 / (-3)), ((int)((-2147483647 - 1) + ((-2) + g2))));
  g2 = f3(((unsigned long)((((-9) <= (-2147483647 - 1)) ? v11 : 6) * ((-1) * v11))), ((int)v12));
  return 0;
}
