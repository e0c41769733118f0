// verdict: true
// unknown-ok: impact theta-expl-multiseq execution
// weak-witness: symbolic (its invariants quantify identifiers; their C part is `1`)
// Symbolic execution's certificate check (fuzz program 6999). A claim that is `false` once
// the equations of the state and the block are solved ran Z3's incremental core out of its
// resource limit (48,884 conflicts): now asked again with Z3's preprocessing. The claim
// against the whole invariant, whose disjuncts quantify identifiers, then ran for minutes
// past the limit in E-matching's pattern compiler: E-matching is off (model-based
// instantiation decides these bit-vector formulas). Before: no verdict after 60 s.
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
unsigned long g1 = 0UL;
int g2 = 0;
char f3(long p4) {
  long v5 = 16384U;
  v5 -= g2;
  return (v5 - (g2 >> 13));
}
unsigned char f6(void) {
  g2++;
  g2 = (g2 + ((0 - g2) << (g2 & 31)));
  int v7 = ((g1 * ((char)-1)) << 17);
  return g2;
}
unsigned short f8(unsigned int p9, unsigned int p10) {
  g1 = g2;
  return ((p10 != 3428216480U) || (g2 != 1963110372));
}
int main(void) {
  unsigned long long v11 = __VERIFIER_nondet_ulonglong();
  int v12 = __VERIFIER_nondet_int();
  unsigned long long v13 = __VERIFIER_nondet_ulonglong();
  v11 = v12;
  g1 = __VERIFIER_nondet_ulong();
  {
    int i14 = 0;
    while (i14 < 6) {
      g1 = __VERIFIER_nondet_ulong();
      g2 = f3(((long)(g2 <= (-1))));
      v11 = f8(((unsigned int)6), (v11 + (v12 / (-2))));
      i14 = i14 + 1;
    }
  }
  v12 = f6();
  for (int i16 = 0; i16 < 5; i16++) {
  }
  __VERIFIER_assert((v11 != 0ULL));
  return 0;
}
