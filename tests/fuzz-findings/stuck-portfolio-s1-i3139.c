// MENDED (2026-11-27, commits 96d4b4b and 137fb30): portfolio FALSE in 18.2 s (no verdict in
// 90 s earlier the same day), with the identical-component skip and tactics under a fifth of
// the resource limit.
// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction theta-pred-bw execution
// fuzz: stuck from portfolio, found by `cpa fuzz --seed 1 --start 3139 --count 1`
// fuzz: portfolio: no verdict after 60 s: 2424 units done, 275 solver calls; the current unit has run 41.6 s, the current solver call 41.5 s
// fuzz: minimized from 56 to 51 lines in 12 checks; verdicts now: predicate-lbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 32))) (and (or (and (= |g1#1| #x00000000) (not (= (bvmul (bvsub #x04000001 |g1#1|) #x00000008 x!0) #xfffffffe)) (= |main::v8#3| x!0)) (a... (391 characters)), predicate-sbe unknown (limit reached: solver query limit of 1500 reached), predicate-abel unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 32))) (and (or (and (= |g1#1| #x00000000) (not (= (bvmul (bvsub #x04000001 |g1#1|) #x00000008 x!0) #xfffffffe)) (= |main::v8#3| x!0)) (a... (391 characters)), impact unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 32)) (x!1 (_ BitVec 32)) (x!2 (_ BitVec 32)) (x!3 (_ BitVec 32))) (and (= x!1 (bvadd |g1#2| #xffffffe0)) (= x!0 (bvadd |f5::i6#3| #x0000... (375 characters)), bmc unknown (state limit of 10000 reached), kinduction unknown (state limit of 10000 reached), value false, symbolic false, theta-pred-bw unknown (limit reached: solver query limit of 1500 reached), theta-expl-multiseq false, portfolio stuck (no verdict after 60 s: 2062 units done, 269 solver calls; the current unit has run 42.2 s, the current solver call 42.1 s), execution unknown (the run needs single input values at line 23 (another input), and the input read at line 22 still has 4294967296 values there (input splitting enumerates at most 64))
extern void __VERIFIER_assert(int cond);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int g1 = 0;
int g2 = (-2147483647 - 1);
unsigned short f3(void) {
  long long v4 = (-g1);
  return ((0 % 16) > ((v4 == g1) ? 18446744073709551613ULL : g1));
}
void f5(void) {
  {
    int i6 = 0;
    do {
      g1 = (g1 + (4 * (7 - 15)));
      g2 = __VERIFIER_nondet_int();
      i6++;
    } while (i6 < 3);
  }
}
int main(void) {
  int v7 = __VERIFIER_nondet_int();
  unsigned int v8 = __VERIFIER_nondet_uint();
  unsigned short v9 = __VERIFIER_nondet_ushort();
  v8 = __VERIFIER_nondet_uint();
  if ((((67108865 - g1) * (8 * v8)) == 4294967294U)) {
    v8 *= (((_Bool)0) <= v9);
  }
  {
    int i10 = 0;
    L11:;
      f5();
    i10++;
    if (i10 < 5) goto L11;
  }
  {
    f5();
    if ((v9 <= ((unsigned short)65535))) {
      if ((((g1 + v7) * ((v8 == 4294967295U) ? g1 : v8)) == (-g2))) {
        unsigned short v12 = __VERIFIER_nondet_ushort();
      } else {
        __VERIFIER_assert((v8 != 11U));
        v7 -= g1;
        v8 = (((char)v8) - (-(g1 + g1)));
        __VERIFIER_assert((-v9));
      }
      v8 = (g1 + v8);
    }
  }
  return 0;
}
