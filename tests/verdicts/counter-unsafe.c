// verdict: false
// unknown-ok: theta-expl-multiseq
// (multiple counterexamples: the whole ARG is explored before a refinement, and once the
// counter is tracked that ARG is infinite)
// The bug needs seven loop iterations.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  int n = __VERIFIER_nondet_int();
  while (x < n) {
    x++;
  }
  if (x == 7) reach_error();
  return 0;
}
