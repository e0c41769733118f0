// verdict: true
// unknown-ok: predicate-sbe bmc kinduction
// fuzz: stuck from impact, found by `cpa fuzz --seed 1 --start 1465 --count 1`
// fuzz: impact: no verdict after 60 s: 71 units done, 81 solver calls; the current unit has run 35.5 s, the current solver call 35.5 s
// fuzz: minimized from 35 to 31 lines in 12 checks; verdicts now: predicate-lbe true, predicate-sbe slow (no verdict after 60 s: 28 units done, 53 solver calls; the current unit has run 24.8 s, the current solver call 21.1 s), predicate-abel true, impact stuck (no verdict after 60 s: 16 units done, 2 solver calls; the current unit has run 59.9 s, the current solver call 58.9 s), bmc unknown (state limit of 10000 reached), kinduction unknown (state limit of 10000 reached)
extern void __VERIFIER_assert(int cond);
extern void assume_abort_if_not(int cond);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long long __VERIFIER_nondet_longlong(void);
unsigned long g1 = 4294967295UL;
int f2(void) {
  unsigned long v3 = __VERIFIER_nondet_ulong();
  g1 = (((_Bool)1) == (!g1));
  __VERIFIER_assert((((9223372036854775807LL * v3) < (-9223372036854775807LL - 1)) <= (!g1)));
  return (((int)g1) * ((g1 >= 4294967277UL) ? v3 : g1));
}
int main(void) {
  int v6 = __VERIFIER_nondet_int();
  unsigned short v7 = __VERIFIER_nondet_ushort();
  unsigned char v8 = __VERIFIER_nondet_uchar();
  v8 += v8;
  v6 = ((v7 + 10) - ((v6 * ((short)-1)) + (v7 + (-8))));
  v7 = (v7 - (v7 % 2));
  assume_abort_if_not((!(v8 > ((unsigned char)1))));
  unsigned long long v9 = ((g1 - g1) % (-2147483647 - 1));
  for (int i10 = 5; i10 > 0; i10--) {
    for (int i11 = 2; i11 > 0; i11--) {
      long long v12 = __VERIFIER_nondet_longlong();
    }
  }
  __VERIFIER_assert((v7 <= ((unsigned short)65534)));
  return 0;
}
