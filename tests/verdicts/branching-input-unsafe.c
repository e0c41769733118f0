// verdict: false
// unknown-ok: execution
// Inputs read straight into conditions, so no variable holds them: the violation witness
// states the directions taken (branching waypoints), and the validator's replay follows them
// (with every input 0 the run misses the error: x ends at 10). The loop is bounded (x >= 5)
// so that predicate abstraction need not enumerate the even values of x. Concrete execution
// splits inputs into single values and cannot split the first one's 2^31 values: UNKNOWN.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  if (__VERIFIER_nondet_int()) {
    x = 1;
  }
  while (__VERIFIER_nondet_int() > 5) {
    if (x >= 5) break;
    x = x + 2;
  }
  if (!__VERIFIER_nondet_int()) {
    x = x + 10;
  }
  if (x == 15) reach_error();
  return 0;
}
