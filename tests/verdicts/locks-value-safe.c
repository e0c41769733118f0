// verdict: true
// unknown-ok: bmc execution
// BMC: the loop is unbounded, so the forward condition never holds.
// Lock-style control in the manner of SV-COMP's test_locks: explicit values prove it by
// tracking the condition and lock variables (the efficient-CEGAR paper's finding that value
// analysis is strong on such programs).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int p1 = __VERIFIER_nondet_int();
  int p2 = __VERIFIER_nondet_int();
  int lk1, lk2;
  while (1) {
    if (__VERIFIER_nondet_int() == 0) break;
    lk1 = 0;
    lk2 = 0;
    if (p1 != 0) lk1 = 1;
    if (p2 != 0) lk2 = 1;
    if (p1 != 0) {
      if (lk1 != 1) reach_error();
      lk1 = 0;
    }
    if (p2 != 0) {
      if (lk2 != 1) reach_error();
      lk2 = 0;
    }
  }
  return 0;
}
