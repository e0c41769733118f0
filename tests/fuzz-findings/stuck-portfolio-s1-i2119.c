// MENDED (2026-11-27, commits 96d4b4b and 137fb30): portfolio FALSE in 21.0 s (no verdict in
// 90 s earlier the same day).
// verdict: false
// unknown-ok: predicate-sbe bmc kinduction value theta-pred-bw
// fuzz: stuck from portfolio, found by `cpa fuzz --seed 1 --start 2119 --count 1`
// fuzz: portfolio: no verdict after 60 s: 5472 units done, 218 solver calls; the current unit has run 52.3 s, the current solver call 52.3 s
// fuzz: minimized from 63 to 48 lines in 12 checks; verdicts now: predicate-lbe false, predicate-sbe unknown (limit reached: solver query limit of 1500 reached), predicate-abel false, impact false, bmc unknown (state limit of 10000 reached), kinduction unknown (state limit of 10000 reached), value unknown (refinement made no progress: the path is infeasible, but tracking more variables does not show it (it depends on values the value analysis cannot know; try the predicate or symbolic analysis, or max-enum) (2 error paths undecided)), symbolic false, theta-pred-bw slow (no verdict after 60 s: 249 units done, 328 solver calls; the current unit has run 4.7 s, the current solver call 4.6 s), theta-expl-multiseq false, portfolio slow (no verdict after 60 s: 5513 units done, 431 solver calls; the current unit has run 0.2 s, the current solver call 0.2 s)
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
int f1(unsigned long long p2, _Bool p3) {
  if ((p3 != ((_Bool)1))) {
  }
  return (0 * (p3 + p2));
}
int f5(unsigned long long p6) {
  unsigned long long v7 = __VERIFIER_nondet_ulonglong();
  p6 = __VERIFIER_nondet_ulonglong();
  if (((~p6) < (p6 * (-2147483647 - 1)))) {
    return ((p6 / 5) - (v7 & p6));
  }
  return v7;
}
int main(void) {
  int v8 = __VERIFIER_nondet_int();
  _Bool v9 = __VERIFIER_nondet_bool();
  if (!(((~v9) >= ((v8 < (-1399379097)) ? v9 : (-3))) || (v8 << 0))) reach_error();
  f5(v9);
  v8 &= v8;
  v8 = f5(((v9 >= ((_Bool)1)) * ((v8 > (-2147483647 - 1)) ? v9 : v8)));
  v9 <<= 1;
  if ((((v8 + v9) & v9) != (-1))) {
    v9 &= (v8 & 1048575);
  }
  v9 = (-2);
  for (int i10 = 2; i10 > 0; i10--) {
    short v11 = ((short)0);
    for (int i12 = 0; i12 < 6; i12++) {
      v11 += 11;
    }
    if (!(v11 != ((short)77))) reach_error();
    {
      int i13 = 0;
      do {
        if (!(v11 != ((short)66))) reach_error();
        if ((v9 >= ((v9 == 0 || v9 == -1) ? i10 : (i10 % v9)))) {
          v8 = i10;
        }
        i13++;
      } while (i13 < 3);
    }
  }
  return 0;
}
