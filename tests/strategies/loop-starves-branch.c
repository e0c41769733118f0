// The efficient-CEGAR paper's Fig. 5b: the error is reached through the branch `x = 1`, which
// is farther from the error location than the loop. The ERR search (distance only) keeps
// unrolling the loop on the `x = 0` path, and each refinement rules out one more iteration
// count (x = 0, 2, 4, ... never equals 3); a depth term in the search metric expands the
// branch and finds the error after two iterations.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  if (__VERIFIER_nondet_int()) {
    x = 1;
  }
  while (__VERIFIER_nondet_int()) {
    x = x + 2;
  }
  if (x == 5) reach_error();
  return 0;
}
