// verdict: true
// unknown-ok: predicate-lbe predicate-sbe bmc kinduction value portfolio execution
// fuzz: stuck from theta-expl-multiseq, found by `cpa fuzz --seed 1 --start 4358 --count 1`
// fuzz: theta-expl-multiseq: no verdict after 60 s: 241 units done, 322 solver calls; the current unit has run 59.7 s, the current solver call 59.6 s
// fuzz: minimized from 69 to 62 lines in 12 checks; verdicts now: predicate-lbe unknown (limit reached: solver query limit of 1500 reached), predicate-sbe unknown (interpolation: the solver reported an error: line 3202 column 9: max. resource limit exceeded), predicate-abel true, impact true, bmc unknown (state limit of 10000 reached), kinduction unknown (state limit of 10000 reached), value unknown (refinement made no progress: the path is infeasible, but explicit values do not show it and interpolation failed (strategy not applicable: (apply qe) left a quantifier: (exists ((x!4 Int) (x!5 Int)) (and (= 0 (mod (+ (* (- 1) x!5) |g1#1|) 65536)) (= x!4 |main::v11#1|) (= |g1#1| (- 2147483648)) (>= x!5 (- 32768)) (<= x!5 32767) ... (448 characters)) (2 error paths undecided)), symbolic true, theta-pred-bw true, theta-expl-multiseq stuck (no verdict after 60 s: 225 units done, 318 solver calls; the current unit has run 59.7 s, the current solver call 59.7 s), portfolio unknown (state limit of 10000 reached), execution unknown (the run needs single input values at line 32 (another input), and the input read at line 31 still has 4294967296 values there (input splitting enumerates at most 64))
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);
int g1 = (-2147483647 - 1);
int f2(int n3, short p4) {
  if ((n3 <= 0)) {
    return 1;
  }
  if ((((unsigned short)p4) >= (p4 + p4))) {
    return ((n3 + 2147483647) + ((n3 > g1) ? g1 : p4));
  }
  if (((g1 <= 2147483646) ? (-2147483647) : g1)) {
    {
      int i5 = 0;
      L6:;
        p4 = (i5 + g1);
      i5++;
      if (i5 < 3) goto L6;
    }
    g1 = (!((long long)p4));
    unsigned int v7 = g1;
  }
  int r8 = 0;
  r8 = f2((n3 - 2), ((short)g1));
  return ((p4 + 1U) != (r8 + p4));
}
int main(void) {
  int v9 = __VERIFIER_nondet_int();
  long long v10 = __VERIFIER_nondet_longlong();
  v9 = __VERIFIER_nondet_int();
  int v11 = __VERIFIER_nondet_int();
  __VERIFIER_assume((v11 <= 4));
  f2(v11, g1);
  char v12 = __VERIFIER_nondet_char();
  if ((g1 <= (v9 / 8))) goto L13;
  {
    short v14 = ((g1 % 10) - ((long)((short)3)));
    v11 = (((((unsigned long)v11) + ((-1) + v14)) > 0UL) ? (-v10) : (!v11));
  }
  L13:;
  v11 = ((v12 + (v10 - v9)) / (-3));
  if (((((0 == 0 || 0 == -1) ? v10 : (v10 / 0)) % 7) >= (-9223372036854775807LL - 1))) {
    v11 = ((_Bool)((v12 < g1) - 0));
    if ((((int)((65535L <= g1) ? v10 : g1)) >= (v9 / 10))) {
      {
        int i15 = 0;
        while (i15 < 3) {
          __VERIFIER_assert((g1 != 1392496584));
          unsigned int v16 = __VERIFIER_nondet_uint();
          __VERIFIER_assert(((v16 + 1U) >= v16));
          i15 = i15 + 1;
        }
      }
      for (int i19 = 8; i19 > 0; i19--) {
      }
    }
  }
  return 0;
}
