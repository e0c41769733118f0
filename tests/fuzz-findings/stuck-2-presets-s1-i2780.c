// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction value theta-pred-bw theta-expl-multiseq
// fuzz: stuck from symbolic, portfolio, found by `cpa fuzz --seed 1 --start 2780 --count 1`
// fuzz: symbolic: no verdict after 60 s: 189 units done, 429 solver calls; the current unit has run 31.0 s, the current solver call 0.4 s
// fuzz: portfolio: no verdict after 60 s: 814 units done, 217 solver calls; the current unit has run 47.4 s, the current solver call 16.5 s
// fuzz: minimized from 51 to 51 lines in 12 checks; verdicts now: predicate-lbe unknown (solver: AllSAT: canceled), predicate-sbe unknown (interpolation: unexpected solver reply (expected a goals answer (1:1: Z3's internal bvsdiv_i without a non-zero literal divisor)): (goals (goal (let ((a!1 (concat ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) |g2#2|))) (not (bvule (bvadd #x00000012 a!1) (bvadd #xe060e8ee (bvmul #xfffffee0 a!1))))) (not (bvsle |main::i15#1| #x00000000)) (= |main::i15#1| #x00000004) (let ((a!1 (bvadd #x0fcf8b80 (bvmul #x00000090 (concat ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) |g2#2|)))) (a!2 (concat ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((_ extract 7 7) |g2#2|) ((...
extern void reach_error(void);
extern void abort(void);
extern void __VERIFIER_assert(int cond);
extern void assume_abort_if_not(int cond);
extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
long long g1 = (-1LL);
char g2 = ((char)0);
unsigned long f3(unsigned char p4, unsigned short p5) {
  p4 = ((-1) - (g1 + (1 - 4)));
  g2 = (((p4 + (-1)) + (2147483646 + g2)) + p5);
  long long v6 = ((short)(p4 + p4));
  int v7 = __VERIFIER_nondet_int();
  if ((v7 > 0)) {
    v7 = (v7 + 3);
    if (!(v7 > 0)) reach_error();
  }
  return v6;
}
unsigned int f8(unsigned int p9, unsigned long p10) {
  if ((((g1 + g1) <= (-9223372036854775807LL - 1)) && ((p9 * p10) < 1UL))) {
    int v11 = __VERIFIER_nondet_int();
    assume_abort_if_not(((v11 >= 0) && (v11 <= 65538)));
    unsigned short v12 = v11;
    __VERIFIER_assert((v12 == v11));
    g2 += (g2 <= v12);
  }
  return g1;
}
int main(void) {
  unsigned int v13 = __VERIFIER_nondet_uint();
  g2 = __VERIFIER_nondet_char();
  int v14 = (9 * (4 * g2));
  for (int i15 = 4; i15 > 0; i15--) {
    v13 = (((((unsigned char)0) + (-4)) * (18446744073709551613ULL + v14)) - (4095 + (4 + 265255826)));
    unsigned int v16 = (((unsigned int)g1) * (g1 ? g2 : ((unsigned short)65529)));
    g1 = (i15 * (-(9 + v13)));
    if (((18 - v16) <= (2 * v13))) goto L17;
    if ((g2 < ((g1 == 0 || g1 == -1) ? g1 : (g1 / g1)))) {
      continue;
    }
    v16 = ((v14 == 0 || v14 == -1) ? (((g2 % 8) >= 2147483647) ? g1 : g1) : ((((g2 % 8) >= 2147483647) ? g1 : g1) / v14));
    L17:;
  }
  __VERIFIER_assert((g2 != ((char)-128)));
  if (((v13 - v13) >= v14)) {
    abort();
  }
  return 0;
}
