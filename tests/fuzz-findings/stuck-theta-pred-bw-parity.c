// OPEN (2026-11-27, found by hand): theta-pred-bw ran 3 minutes and grew to 6 GB of memory
// without a verdict (a run must end at a limit, with UNKNOWN); predicate-sbe stops at its
// query limit (200,000) after 58 s: on the branch where x starts at 0, x stays even, and the
// refinements add x <= 0, x <= 2, x <= 10, ... without end. Every other preset: FALSE in < 1 s.
// verdict: false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  if (__VERIFIER_nondet_int()) {
    x = 1;
  }
  while (__VERIFIER_nondet_int() > 5) {
    x = x + 2;
  }
  if (!__VERIFIER_nondet_int()) {
    x = x + 10;
  }
  if (x == 15) reach_error();
  return 0;
}
