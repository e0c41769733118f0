// MENDED (2026-11-27): the portfolio's symbolic component spent 56 s in one refinement:
// symbolic interpolation asked 128 satisfiability queries, 40 of them ending at Z3's resource
// limit after 1.1-1.7 s each (the remainder `g1 % g1` of an unknown 64-bit value, bit-blasted).
// Two changes: after the first `unknown` an interpolation drops nothing more (symbolic alone:
// over 100 s -> 1.98 s, TRUE), and `x rem x` simplifies to 0 (-> 0.44 s). Portfolio: TRUE in
// 4.3 s (no verdict in 90 s before).
// verdict: true
// unknown-ok: predicate-lbe predicate-sbe bmc kinduction theta-pred-bw theta-expl-multiseq execution
// fuzz: stuck from portfolio, found by `cpa fuzz --seed 1 --start 3212 --count 1`
// fuzz: portfolio: no verdict after 60 s: 1058 units done, 436 solver calls; the current unit has run 50.3 s, the current solver call 0.2 s
// fuzz: minimized from 50 to 38 lines in 12 checks; verdicts now: predicate-lbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 16)) (x!1 (_ BitVec 16)) (x!2 (_ BitVec 32)) (x!3 (_ BitVec 32))) (and (= |g1#1| #x7fffffffffffffff) (= x!0 ((_ extract 15 0) x!3)) (= (... (384 characters)), predicate-sbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!10 (_ BitVec 64))) (and (= x!10 ((_ zero_extend 56) ((_ extract 7 0) (ite (or (= |g1#1| #x0000000000000000) (= |g1#1| #xffffffffffffffff)) |g1#1| (b... (214 characters)), predicate-abel true, impact true, bmc unknown (step limit of 10000 reached), kinduction unknown (step limit of 10000 reached), value true, symbolic true, theta-pred-bw unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!10 (_ BitVec 64))) (and (= x!10 ((_ zero_extend 56) ((_ extract 7 0) (ite (or (= |g1#1| #x0000000000000000) (= |g1#1| #xffffffffffffffff)) |g1#1| (b... (214 characters)), theta-expl-multiseq unknown (refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum)), portfolio stuck (no verdict after 60 s: 1562 units done, 378 solver calls; the current unit has run 43.7 s, the current solver call 0.1 s), execution unknown (the run needs single input values at line 13 (another input), and the input read at line 12 still has 4294967296 values there (input splitting enumerates at most 64))
extern void reach_error(void);
extern void abort(void);
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
long long g1 = 9223372036854775807LL;
unsigned short g2 = ((unsigned short)0);
int f3(unsigned char p4, unsigned short p5) {
  g1 = ((unsigned char)((g1 == 0 || g1 == -1) ? g1 : (g1 % g1)));
  return (!(g1 >= ((char)-7)));
}
int main(void) {
  int v9 = __VERIFIER_nondet_int();
  int v10 = __VERIFIER_nondet_int();
  g2 = v9;
  if ((((v9 < (-1)) ? g1 : v10) != v10)) {
    abort();
  }
  g2 -= v10;
  if (((g2 - g1) >= 131072LL)) goto L11;
  v10 = f3(((unsigned char)g2), ((unsigned short)(g1 - (v9 * 8))));
  L11:;
  int v12 = 0;
  for (int i13 = 0; i13 < 4; i13++) {
    v12 += 31;
  }
  if (!(v12 != 93)) reach_error();
  v10 = (((-2147483647 - 1) - (g1 * 2147483647)) % 10);
  {
    int i14 = __VERIFIER_nondet_int();
    while (i14) {
      g2 = g1;
      g2 = g1;
      i14 = __VERIFIER_nondet_int();
    }
  }
  __VERIFIER_assert((g1 != 1LL));
  return 0;
}
