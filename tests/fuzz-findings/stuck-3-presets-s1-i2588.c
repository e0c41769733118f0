// verdict: false
// unknown-ok: predicate-sbe
// fuzz: stuck from bmc, kinduction, portfolio, found by `cpa fuzz --seed 1 --start 2588 --count 1`
// fuzz: bmc: no verdict after 60 s: 697 units done, 0 solver calls; the current unit has run 59.8 s, the current solver call 59.8 s
// fuzz: kinduction: no verdict after 60 s: 697 units done, 0 solver calls; the current unit has run 59.8 s, the current solver call 59.8 s
// fuzz: portfolio: no verdict after 60 s: 698 units done, 1 solver calls; the current unit has run 59.8 s, the current solver call 59.7 s
// fuzz: minimized from 65 to 47 lines in 12 checks; verdicts now: predicate-lbe false, predicate-sbe unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: Z3's internal bvudiv_i without a non-zero literal divisor)): (goals (goal (not (bvsle |main::v11#1| #x00000000)) (not (bvsle (bvadd #xfffffffb |main::v11#1|) #x00000000)) (not (bvsle (bvadd #xfffffffc |main::v11#1|) #x00000000)) (not (bvsle (bvadd #xfffffffd |main::v11#1|) #x00000000)) (not (bvsle (bvadd #xfffffffe |main::v11#1|) #x00000000)) (not (bvsle (bvadd #xffffffff |main::v11#1|) #x00000000)) (= |f3::p6#1| ((_ extract 34 3) |g1#1|)) (= |f3::p6@1#1| ((_ extract 31 0) |g2#1|)) (= |f3::p6@2#1| ((_ extract 31 0) |g2#1|)) (= |f3::p6@3#1| ((_ extract 31 0) |g2#1|)) (= |f3::p6@4#1| ((_ extract 31 0) |g2#1|)) (= |f3::p6@5#1| ((_ extract 31 0) |g2#1|)) (= |f3::p6@6#1| ((_ extract 31 0) |g2#1|)) (= |g1#1| #xffffffffffffffff) (= |g2#1| #x0000000000000000) (not (bvsle (bvadd #xfffffffa |main::v11#1|) #x00000000)) (= |f3::n4@7#1| (bvadd #xfffffff9 |main::v11#1|)) (let ((a!1 (bvudiv_i (concat ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffffffa |main::v11#1|)) ((_ extract 31 31) (bvadd #xfffff...
extern void reach_error(void);
extern void __VERIFIER_assert(int cond);
extern void __VERIFIER_assume(int cond);
extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);
unsigned long long g1 = 18446744073709551615ULL;
unsigned long long g2 = 0ULL;
unsigned int f3(int n4, int p5, unsigned int p6) {
  if ((n4 <= 0)) {
    return (g2 - ((0 == 0 || 0 == -1) ? p5 : (p5 % 0)));
  }
  p5 = __VERIFIER_nondet_int();
  unsigned int r7 = 0;
  r7 = f3((n4 - 1), ((int)((g1 == 0 || g1 == -1) ? n4 : (n4 / g1))), ((unsigned int)g2));
  p6 = ((r7 * ((unsigned int)r7)) - p6);
  char v8 = ((g1 * r7) + 2147483647);
  return ((p6 - (-2147483647)) - ((unsigned char)127));
}
int main(void) {
  long long v9 = __VERIFIER_nondet_longlong();
  unsigned int v10 = __VERIFIER_nondet_uint();
  v9 = g1;
  int v11 = __VERIFIER_nondet_int();
  g2 = f3(v11, (-4), ((unsigned int)(g1 >> 3)));
  v10 <<= 2;
  v11 <<= 6;
  char v12 = __VERIFIER_nondet_char();
  if ((v12 > 0)) {
    v12 = (v12 + ((char)3));
    if (!(v12 > 0)) reach_error();
  }
  __VERIFIER_assume((g2 != 32767ULL));
  {
    int v13 = __VERIFIER_nondet_int();
    v10 = f3(v13, ((int)(((g1 + g1) > 18446744073709551615ULL) ? (v13 - 0) : (v10 | v10))), ((unsigned int)(-(v12 * 3))));
  }
  {
    int i17 = __VERIFIER_nondet_int();
    while (i17) {
      i17 = __VERIFIER_nondet_int();
    }
  }
  __VERIFIER_assert((v12 != ((char)12)));
  return 0;
}
