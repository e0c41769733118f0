// verdict: true
// unknown-ok: predicate-sbe impact bmc kinduction portfolio
// fuzz: stuck from theta-pred-bw, found by `cpa fuzz --seed 1 --start 2295 --count 1`
// fuzz: theta-pred-bw: no verdict after 60 s: 101 units done, 141 solver calls; the current unit has run 57.9 s, the current solver call 57.8 s
// fuzz: minimized from 40 to 40 lines in 12 checks; verdicts now: predicate-lbe true, predicate-sbe unknown (limit reached: solver query limit of 1500 reached), predicate-abel true, impact unknown (interpolation: strategy not applicable: quantifier elimination brought more than 64 distinct atoms), bmc unknown (state limit of 10000 reached), kinduction unknown (state limit of 10000 reached), value true, symbolic true, theta-pred-bw true, theta-expl-multiseq true, portfolio unknown (state limit of 10000 reached)
extern void __VERIFIER_assert(int cond);
extern void assume_abort_if_not(int cond);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
unsigned char g1 = ((unsigned char)0);
int main(void) {
  unsigned int v2 = __VERIFIER_nondet_uint();
  int v3 = __VERIFIER_nondet_int();
  long v4 = __VERIFIER_nondet_long();
  for (int i5 = 0; i5 < 2; i5++) {
    v3 = ((-8) ? ((0 - 127) - v2) : v4);
    for (int i6 = 0; i6 < 6; i6++) {
      if ((i6 <= 255)) {
        v2 = (((v4 * v4) / 7) << (g1 & 31));
      }
      v2 = ((long)(((-4) & v4) - (v3 - 6)));
      v3 = (-8);
    }
    assume_abort_if_not((i5 == ((-11) ^ ((unsigned char)249))));
  }
  g1 = (((unsigned char)v2) % 256);
  g1++;
  for (int i7 = 3; i7 > 0; i7--) {
    unsigned char v8 = __VERIFIER_nondet_uchar();
    __VERIFIER_assert(((v8 ^ v8) == 0));
    v3 = 1;
    unsigned char v9 = v2;
    v2 = ((0 == 0 || 0 == -1) ? (((v8 <= i7) ? v9 : v9) & ((unsigned short)1000LL)) : ((((v8 <= i7) ? v9 : v9) & ((unsigned short)1000LL)) / 0));
  }
  {
    int i10 = 0;
    while (i10 < 5) {
      i10 = i10 + 1;
    }
  }
  __VERIFIER_assert((g1 != ((unsigned char)0)));
  return 0;
}
