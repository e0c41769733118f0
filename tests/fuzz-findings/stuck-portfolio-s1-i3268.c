// MENDED (2026-11-27): the portfolio answers TRUE in 41 s (no verdict in 90 s before; 49 s with
// the symbolic change of stuck-portfolio-s1-i3212.c alone, 41 s now that the second
// `predicate-lbe`, which would end as the first did, is skipped). Its components' own times:
// kinduction(k-max=6) 1.9 s, predicate-lbe 3.9 s, predicate-lbe(signed-overflow=check) 6.0 s,
// symbolic 16-18 s (10 s of it in a certificate check whose queries end at the resource
// limit), kinduction 13.6 s (TRUE). The header said `false` because no run had decided (the
// fuzzer now writes `unknown` then); TRUE is right: after the loop v8 = 0 and
// g1 = (x << 6) - 12 * v5 is 0 mod 4, while -8968866739308738299 is 1 mod 4.
// verdict: true
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction value symbolic theta-pred-bw theta-expl-multiseq execution
// fuzz: stuck from portfolio, found by `cpa fuzz --seed 1 --start 3268 --count 1`
// fuzz: portfolio: no verdict after 60 s: 1742 units done, 957 solver calls; the current unit has run 34.1 s, the current solver call 0.5 s
// fuzz: minimized from 46 to 31 lines in 12 checks; verdicts now: predicate-lbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!2 (_ BitVec 64)) (x!3 (_ BitVec 64)) (x!4 (_ BitVec 64)) (x!5 (_ BitVec 64)) (x!6 (_ BitVec 64))) (and (not (bvsle #x00000004 |main::i9#1|)) (= x!4 ... (2492 characters)), predicate-sbe unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!4 (_ BitVec 64)) (x!5 (_ BitVec 64))) (and (= x!4 (bvsub (bvshl |g1#5| #x0000000000000006) (bvmul x!5 #x000000000000000c))) (= (concat #b00000000000... (362 characters)), predicate-abel unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!0 (_ BitVec 64)) (x!1 (_ BitVec 64)) (x!2 (_ BitVec 64)) (x!3 (_ BitVec 64)) (x!4 (_ BitVec 64)) (x!5 (_ BitVec 64)) (x!6 (_ BitVec 64)) (x!7 (_ Bit... (972 characters)), impact unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!2 (_ BitVec 64)) (x!3 (_ BitVec 64)) (x!4 (_ BitVec 64)) (x!5 (_ BitVec 64)) (x!6 (_ BitVec 64)) (x!7 (_ BitVec 64)) (x!8 (_ BitVec 64)) (x!9 (_ Bit... (1122 characters)), bmc unknown (solver: query too large: its multiplications and divisions need about 32768 bit-level cells, over the 31250 the resource limit allows), kinduction unknown (solver: query too large: its multiplications and divisions need about 32768 bit-level cells, over the 31250 the resource limit allows), value unknown (solver: feasibility check: query too large: its multiplications and divisions need about 32768 bit-level cells, over the 31250 the resource limit allows), symbolic unknown (solver: feasibility check: query too large: its multiplications and divisions need about 32768 bit-level cells, over the 31250 the resource limit allows), theta-pred-bw unknown (interpolation: strategy not applicable: (apply qe) left a quantifier: (exists ((x!3 (_ BitVec 64)) (x!4 (_ BitVec 64)) (x!5 (_ BitVec 64)) (x!6 (_ BitVec 64)) (x!7 (_ BitVec 64))) (and (= x!5 (bvsub (bvand (bvsub |g1#3| #xfffffff...
extern void __VERIFIER_assert(int cond);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
long long g1 = 137438953473LL;
int g2 = 2147483645;
unsigned long long f3(void) {
  g1 = (((g1 - (-16)) & ((g1 == 0 || g1 == -1) ? 74222722 : (74222722 / g1))) - (2147483647 + (g1 ^ g2)));
  g1 -= g2;
  unsigned long long v5 = __VERIFIER_nondet_ulonglong();
  return ((g1 << 6) - (v5 * 12));
}
short f6(char p7) {
  g1 = (((!g1) != ((g1 == 0 || g1 == -1) ? 1 : (1 % g1))) > (p7 >= p7));
  f3();
  return ((5LL % 4) ^ g1);
}
int main(void) {
  unsigned char v8 = __VERIFIER_nondet_uchar();
  for (int i9 = 0; i9 < 4; i9++) {
    short v10 = __VERIFIER_nondet_short();
    v10 = f3();
    g1 = f3();
    v8 += ((unsigned int)g1);
  }
  v8 = ((_Bool)1);
  v8 = ((1 * (g2 - v8)) & v8);
  __VERIFIER_assert(((v8 + g1) != (-8968866739308738299LL)));
  unsigned long v11 = ((0LL + v8) << 13);
  return 0;
}
