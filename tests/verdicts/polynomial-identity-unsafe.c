// verdict: false
// only: kinduction bmc impact value portfolio
// The twin of polynomial-identity-safe.c whose sum slips once, at the fifth iteration: the
// identity y*y - 2*x + y == 0 fails from then on, and the step case must not prove it.
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
    if (c == 5) x = x + 1;
  }
  return 0;
}
