// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact theta-pred-bw execution
// fuzz: stuck from portfolio, found by `cpa fuzz --seed 1 --start 4046 --count 1`
// fuzz: portfolio: no verdict after 60 s: 2224 units done, 379 solver calls; the current unit has run 33.8 s, the current solver call 4.5 s
// fuzz: minimized from 33 to 33 lines in 12 checks; verdicts now: predicate-lbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 32)) (x!1 (_ BitVec 32)) (x!2 (_ BitVec 32))) (and (= x!0 #x00000000) (bvslt x!0 #x00000006) (= x!2 (bvlshr x!1 #x00000006)) (= |main::v... (230 characters)), predicate-sbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!10 (_ BitVec 32)) (x!11 (_ BitVec 32))) (and (= x!11 (bvlshr x!10 #x00000006)) (not (bvsle #x00000006 (bvadd #x00000001 |main::i2#1|))) (not (bvsle ... (1482 characters)), predicate-abel unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 32)) (x!1 (_ BitVec 32)) (x!2 (_ BitVec 32))) (and (= x!0 #x00000000) (bvslt x!0 #x00000006) (= x!2 (bvlshr x!1 #x00000006)) (= |main::v... (230 characters)), impact unknown (interpolation: strategy not applicable: quantifier elimination brought more than 64 distinct atoms), bmc false, kinduction false, value false, symbolic false, theta-pred-bw unknown (refinement made no progress: the interpolants add no new predicate), theta-expl-multiseq false, portfolio false, execution unknown (the run needs single input values at line 8 ('>>' of an input-dependent value), and the input read at line 6 still has 4294967296 values there (input splitting enumerates at most 64))
extern void __VERIFIER_assert(int cond);
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
int main(void) {
  unsigned long v1 = __VERIFIER_nondet_ulong();
  for (int i2 = 0; i2 < 6; i2++) {
    v1 >>= 6;
    v1++;
  }
  v1 = (((v1 << 26) * (0 - 2147483645)) ^ (((unsigned short)1025) - v1));
  long long v3 = v1;
  if ((((v1 * v1) * (1 + v1)) >= (v1 << 15))) {
    unsigned long long v4 = __VERIFIER_nondet_ulonglong();
    __VERIFIER_assert(((v4 + 7ULL) >= v4));
    v3 ^= ((4 != (-2147483647 - 1)) ? v1 : v1);
  }
  v3 = ((((unsigned int)2ULL) % 2) % (-2));
  if ((-6)) {
    if (((v3 * ((short)-1)) != (-7LL))) goto L5;
    {
      unsigned int v6 = __VERIFIER_nondet_uint();
      for (int i7 = 3; i7 > 0; i7--) {
        v6 = v1;
      }
    }
    L5:;
    if (((v3 + v3) <= (v3 | v1))) goto L8;
    L8:;
  }
  __VERIFIER_assert((v1 != 201327872UL));
  return 0;
}
