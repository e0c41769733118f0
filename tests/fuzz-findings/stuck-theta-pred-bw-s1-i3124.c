// OPEN (2026-11-27): theta-pred-bw now ends with UNKNOWN (interpolation: resource limit) in
// 75 s alone (another run beside it), over the 60 s bound; no answer within 90 s before
// tactics ran under a fifth of the resource limit (commit 137fb30).
// verdict: false
// unknown-ok: predicate-lbe predicate-abel impact execution
// fuzz: stuck from theta-pred-bw, found by `cpa fuzz --seed 1 --start 3124 --count 1`
// fuzz: theta-pred-bw: no verdict after 60 s: 150 units done, 251 solver calls; the current unit has run 39.0 s, the current solver call 26.0 s
// fuzz: minimized from 54 to 30 lines in 12 checks; verdicts now: predicate-lbe unknown (interpolation: the solver reported an error: line 559 column 9: max. resource limit exceeded), predicate-sbe false, predicate-abel unknown (interpolation: the solver reported an error: line 559 column 9: max. resource limit exceeded), impact unknown (interpolation: the solver reported an error: line 371 column 9: max. resource limit exceeded), bmc false, kinduction false, value false, symbolic false, theta-pred-bw stuck (no verdict after 60 s: 150 units done, 251 solver calls; the current unit has run 40.5 s, the current solver call 24.0 s), theta-expl-multiseq false, portfolio false, execution unknown (the run needs single input values at line 8 (another input), and the input read at line 7 still has 18446744073709551616 values there (input splitting enumerates at most 64))
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);
unsigned int g1 = 0U;
int main(void) {
  long long v9 = __VERIFIER_nondet_longlong();
  int v10 = __VERIFIER_nondet_int();
  unsigned int v11 = (v10 - (v9 + v9));
  {
    int i12 = 0;
    do {
      char v13 = (((v9 > v11) ? i12 : 16298000507072731182ULL) + v10);
      i12++;
    } while (i12 < 5);
  }
  for (int i14 = 0; i14 < 0; i14++) {
  }
  if (((((-2147483645) <= v10) ? v11 : v11) <= 0U)) goto L16;
  if ((((g1 + g1) - (2UL - 4294967293U)) <= 511UL)) {
    _Bool v17 = ((v10 + v9) * (4294967292U - 9223372036854775807LL));
    g1 = __VERIFIER_nondet_uint();
    if ((((v17 == ((_Bool)1)) ? (!g1) : v11) <= 1U)) {
      v9 = v10;
    }
  }
  L16:;
  __VERIFIER_assert((g1 != 0U));
  return 0;
}
