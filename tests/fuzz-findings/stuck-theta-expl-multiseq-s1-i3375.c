// MENDED (2026-11-27): five `(apply qe)` calls of 11-15 s each (exists v. y = (bvor c v) on 32
// bits; Z3's qe time grows faster than its resource limit), each leaving the quantifier. A
// tactic now runs under a fifth of the query's limit: theta-expl-multiseq answers UNKNOWN in
// 29.5 s (no verdict in 60 s before); FALSE is established by other presets.
// verdict: false
// unknown-ok: predicate-lbe predicate-sbe bmc kinduction value portfolio execution
// fuzz: stuck from theta-expl-multiseq, found by `cpa fuzz --seed 1 --start 3375 --count 1`
// fuzz: theta-expl-multiseq: no verdict after 60 s: 522 units done, 272 solver calls; the current unit has run 51.8 s, the current solver call 1.6 s
// fuzz: minimized from 59 to 47 lines in 12 checks; verdicts now: predicate-lbe unknown (limit reached: solver query limit of 1500 reached), predicate-sbe unknown (limit reached: solver query limit of 1500 reached), predicate-abel false, impact false, bmc unknown (solver: canceled), kinduction unknown (solver: canceled), value unknown (limit reached: solver query limit of 1500 reached), symbolic false, theta-pred-bw false, theta-expl-multiseq stuck (no verdict after 60 s: 505 units done, 235 solver calls; the current unit has run 47.3 s, the current solver call 0.9 s), portfolio unknown (limit reached: solver query limit of 1500 reached), execution unknown (the run needs single input values at line 28 ('|' of an input-dependent value), and the input read at line 27 still has 4294967295 values there (input splitting enumerates at most 64))
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern void assume_abort_if_not(int cond);
extern _Bool __VERIFIER_nondet_bool(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
char f1(int n2, unsigned long long p3, unsigned int p4) {
  if ((n2 <= 0)) {
    return ((0ULL == 2199023255551ULL) || (p4 == p3));
  }
  int v5 = __VERIFIER_nondet_int();
  char r6 = 0;
  r6 = f1((n2 - 1), ((unsigned long long)((n2 > 255) ? (-8) : (-6))), ((unsigned int)(-p4)));
  {
    int i7 = 0;
    while (i7 < 4) {
      __VERIFIER_assert((r6 != ((char)4)));
      unsigned int v8 = __VERIFIER_nondet_uint();
      r6 = (p4 + v8);
      i7 = i7 + 1;
    }
  }
  return p4;
}
int main(void) {
  _Bool v9 = __VERIFIER_nondet_bool();
  unsigned int v10 = __VERIFIER_nondet_uint();
  v10 = ((((v10 < 4294967295U) && ((-2147483646) == 4)) ? ((-3) - v9) : (-2147483647)) | v10);
  v10 = (!(v10 - (v10 | v10)));
  int v11 = ((5 / 16) % 10);
  v9 = v9;
  if ((v10 % (-2))) goto L12;
  v11 = f1(5, ((v11 + v11) & (v10 / 5)), ((unsigned int)((v9 > 5) || (v11 == v10))));
  L12:;
  assume_abort_if_not(((v9 <= v9) && (v10 != 0U)));
  int v13 = __VERIFIER_nondet_int();
  __VERIFIER_assume((v13 <= 4));
  f1(v13, ((unsigned long long)v9), ((unsigned int)v13));
  v11 ^= (v10 + v10);
  v10 = ((!v13) * (7 | (v13 | 32767U)));
  int v14 = __VERIFIER_nondet_int();
  assume_abort_if_not(((v14 >= 0) && (v14 <= 32767)));
  short v15 = v14;
  __VERIFIER_assert((v15 == v14));
  v9 = (((v9 - v10) & (v14 > 4)) + v10);
  return 0;
}
