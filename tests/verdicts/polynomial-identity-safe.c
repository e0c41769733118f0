// verdict: true
// only: kinduction portfolio
// unknown-ok: portfolio
// A nonlinear invariant (SV-COMP's nla-digbench/ps2-ll pattern): y*y - 2*x + y == 0 holds
// at every iteration, also with 64-bit wrap-around (a ring identity). k-induction's step
// case is that identity: bit-blasting the 64-bit products does not decide it within the
// solver's resource limit, the solver's preprocessing (the path's equations solved, the
// step case's shared prefix factored out) does. The portfolio may stop at the golden
// table's step limit.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  long long y = 0, x = 0, c = 0;
  while (1) {
    if (!((y * y) - 2 * x + y == 0)) reach_error();
    if (!(c < k)) break;
    c = c + 1;
    y = y + 1;
    x = y + x;
  }
  return 0;
}
