// verdict: true
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction value theta-pred-bw theta-expl-multiseq execution
// fuzz: stuck from symbolic, portfolio, found by `cpa fuzz --seed 1 --start 3974 --count 1`
// fuzz: symbolic: no verdict after 60 s: 198 units done, 347 solver calls; the current unit has run 51.7 s, the current solver call 6.1 s
// fuzz: portfolio: no verdict after 60 s: 3192 units done, 797 solver calls; the current unit has run 45.2 s, the current solver call 0.1 s
// fuzz: minimized from 75 to 61 lines in 12 checks; verdicts now: predicate-lbe unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: Z3's internal bvsdiv_i without a non-zero literal divisor)): (goals (goal (let ((a!1 (= (ite (or (= |f1::n2#1| #x00000000) (= |f1::n2#1| #xffffffff)) |f1::n2#1| (bvsdiv_i |f1::n2#1| |f1::n2#1|)) #x00000000))) (let ((a!2 (and (not (bvsle |f1::n2#1| #x00000000)) (not a!1) (= (bvadd (bvmul #xffffffff |f1::n2#1|) (bvashr |f1::n2#1| #x00000016)) (bvadd #xfffffd13 |f1::p3#1|))))) (or (and (not (bvsle |f1::n2#1| #x00000000)) a!1 (= |f1::p3#1| #xfffffd13)) a!2))) :precision precise :depth 1) )), predicate-sbe unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: Z3's internal bvsdiv_i without a non-zero literal divisor)): (goals (goal (not (bvsle |main::v18#1| #x00000000)) (let ((a!1 (and (not (= |main::v18#1| #x00000000)) (not (= |main::v18#1| #xffffffff)) (not (= (bvsdiv_i |main::v18#1| |main::v18#1|) #x00000000))))) (or (and (or (= |main::v18#1| #x00000000) (= |main::v18#1| #xffffffff)) (not (= |main::v18#1| #x00000000))) a!1)) (let ((a!1 (bvmul #xffffffff (bvashr (concat ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) ((_ extract 15 15) |main::v6#2|) |main::v6#2|) #x0000000d)))) (= (bvadd (bvmul #xffffffff |main::v18#1|) (bvashr |main::v18#1| #x00000016)) (bvadd #xfffffd10 a!1))) :precision precise :depth 1) )), predicate-abel unknown (solver: feasibility check: query too large: its multiplications and divisions need about 32896 bit-level cells, over the 31250 the resource limit allows), impact unknown (interpolatio...
extern void reach_error(void);
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern void assume_abort_if_not(int cond);
extern short __VERIFIER_nondet_short(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
int f1(int n2, unsigned long p3) {
  if ((n2 <= 0)) {
    return 16U;
  }
  if (((n2 == 0 || n2 == -1) ? n2 : (n2 / n2))) {
    p3 = (-((p3 + n2) - (n2 >> 22)));
  }
  __VERIFIER_assert((p3 != 4294966547UL));
  if ((((n2 - (-10)) * ((p3 == 0 || p3 == -1) ? n2 : (n2 / p3))) == 9UL)) {
    short v4 = ((p3 % 16) - (-n2));
    if (((n2 <= n2) > 100)) {
      p3 = ((int)((n2 | (-16)) ^ n2));
    }
    p3 -= n2;
  }
  int r5 = 0;
  r5 = f1((n2 - 1), ((unsigned long)(1000 + n2)));
  return n2;
}
int main(void) {
  short v6 = __VERIFIER_nondet_short();
  unsigned long v7 = __VERIFIER_nondet_ulong();
  unsigned long long v8 = __VERIFIER_nondet_ulonglong();
  v6 = (((int)(v8 | v6)) - v6);
  int v12 = (((char)v7) * (v6 < ((short)32767)));
  if (((v7 - v12) == (v6 << 28))) goto L13;
  {
    v7 = (-5);
    int v14 = 0;
    for (int i15 = 0; i15 < 2; i15++) {
      v14 += 27;
    }
    if (!(v14 != 27)) reach_error();
  }
  L13:;
  if ((v12 == (v8 <= v7))) {
    unsigned long v16 = __VERIFIER_nondet_ulong();
  } else {
    v7 -= (~0);
    long long v17 = __VERIFIER_nondet_longlong();
    if (((v8 + (v12 << 3)) > 1ULL)) {
      v8 = ((unsigned long long)4294967287U);
    }
  }
  assume_abort_if_not((v6 != ((-7) != (-2))));
  if (((v7 + v6) > 255UL)) {
    int v18 = __VERIFIER_nondet_int();
    __VERIFIER_assume((v18 <= 4));
    f1(v18, ((unsigned long)((6 + 4294967287U) - (v6 >> 13))));
  }
  return 0;
}
