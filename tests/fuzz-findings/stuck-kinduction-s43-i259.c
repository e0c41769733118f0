// Found with s43-i228 (2026-11-27): random concrete runs reach the error; bmc and kinduction
// answer UNKNOWN (solver: canceled) after about 135 s, never TRUE. Open for liveness only.
// verdict: false
// fuzz: stuck from kinduction, found by `cpa fuzz --seed 43 --start 259 --count 1`
// fuzz: kinduction: no verdict after 15 s: 410 units done, 0 solver calls; the current unit has run 14.8 s, the current solver call 14.7 s
// fuzz: minimized from 61 to 31 lines in 12 checks; verdicts now: kinduction stuck (no verdict after 15 s: 338 units done, 0 solver calls; the current unit has run 14.8 s, the current solver call 14.8 s)
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);
unsigned long long g1 = 0ULL;
int f2(void) {
  return ((!(g1 != g1)) ? (g1 + g1) : (-1));
}
unsigned char f5(int n6) {
  if ((n6 <= 0)) {
    return (!((g1 != 18446744073709551597ULL) ? 6 : n6));
  }
  int v7 = __VERIFIER_nondet_int();
  g1 = (g1 / 9);
  unsigned char r8 = 0;
  r8 = f5((n6 - 1));
  long long v9 = ((g1 == 0 || g1 == -1) ? (6 * n6) : ((6 * n6) % g1));
  return n6;
}
int main(void) {
  long long v10 = __VERIFIER_nondet_longlong();
  int v12 = __VERIFIER_nondet_int();
  int v13 = __VERIFIER_nondet_int();
  __VERIFIER_assume((v13 <= 4));
  v13 = f5(v13);
  v12--;
  v12 = f2();
  __VERIFIER_assert((v10 != 1LL));
  v12 = ((!(!v13)) - (!(9 - g1)));
  return 0;
}
