// verdict: true
// unknown-ok: bmc execution
// BMC: the loop has no bound, so the forward condition never holds.
// A lock-style example in the spirit of McMillan's IMPACT paper: lock and unlock alternate.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int lock = 0;
  int got = 0;
  while (__VERIFIER_nondet_int()) {
    if (lock != 0) reach_error();
    lock = 1;
    got = __VERIFIER_nondet_int();
    if (got) {
      lock = 0;
    } else {
      lock = 0;
    }
  }
  return 0;
}
