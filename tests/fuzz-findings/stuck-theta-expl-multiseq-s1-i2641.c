// verdict: false
// unknown-ok: predicate-lbe predicate-sbe bmc kinduction portfolio
// fuzz: stuck from theta-expl-multiseq, found by `cpa fuzz --seed 1 --start 2641 --count 1`
// fuzz: theta-expl-multiseq: no verdict after 60 s: 365 units done, 718 solver calls; the current unit has run 31.5 s, the current solver call 0.0 s
// fuzz: minimized from 85 to 56 lines in 12 checks; verdicts now: predicate-lbe slow (no verdict after 60 s: 73 units done, 752 solver calls; the current unit has run 3.9 s, the current solver call 0.0 s), predicate-sbe slow (no verdict after 60 s: 74 units done, 641 solver calls; the current unit has run 14.0 s, the current solver call 0.1 s), predicate-abel false, impact false, bmc slow (no verdict after 60 s: 3778 units done, 6 solver calls; the current unit has run 3.5 s, the current solver call 3.5 s), kinduction unknown (solver: canceled), value false, symbolic false, theta-pred-bw false, theta-expl-multiseq unknown (limit reached: solver query limit of 1500 reached), portfolio unknown (limit reached: solver query limit of 1500 reached)
extern void reach_error(void);
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern void assume_abort_if_not(int cond);
extern int __VERIFIER_nondet_int(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
long long f5(long long p6, long long p7) {
  if ((p7 < (p7 % 5))) {
    if (!(p6 != (-6524967845032824680LL))) reach_error();
    assume_abort_if_not((p7 || (p6 != p6)));
  }
  {
    int i8 = 0;
    L9:;
    i8++;
    if (i8 < 1) goto L9;
  }
  return 514972936;
}
long long f10(int n11, unsigned long long p12) {
  if ((n11 <= 0)) {
    return ((p12 % 10) / 4);
  }
  p12 = (((-n11) - (0 * n11)) + ((unsigned long long)p12));
  if (((3U / (-3)) != 4294967295U)) goto L13;
  p12++;
  p12 = __VERIFIER_nondet_ulonglong();
  L13:;
  long long r14 = 0;
  r14 = f10((n11 - 1), ((unsigned long long)(p12 % ((short)3))));
  unsigned int v15 = 0U;
  for (int i16 = 0; i16 < 2; i16++) {
    v15 += 30;
  }
  if (!(v15 != 60U)) reach_error();
  return (((r14 == 1LL) < (-2147483647 - 1)) ? (p12 * r14) : (n11 - r14));
}
int main(void) {
  int v17 = __VERIFIER_nondet_int();
  int v18 = __VERIFIER_nondet_int();
  v18 = __VERIFIER_nondet_int();
  v18 = ((((-798673771) / 7) - (v18 + v17)) + ((short)-32768));
  int v19 = __VERIFIER_nondet_int();
  __VERIFIER_assume((v19 <= 4));
  v19 = f10(v19, ((unsigned long long)(-9)));
  __VERIFIER_assume((v19 <= (v19 != v19)));
  v18 = ((((-2) * v18) + (v18 - v18)) + (-(v18 == 2147483646)));
  v17 = v17;
  v19 = v18;
  v19 = (v19 + v17);
  __VERIFIER_assert((v17 >= 17));
  v19 = ((!v19) > ((v19 == 0 || v19 == -1) ? v19 : (v19 % v19)));
  if ((((v19 * v18) + v19) >= (-2147483647 - 1))) {
  }
  return 0;
}
