// verdict: false
// Signed overflow wraps (two's complement, like gcc -fwrapv) in every preset and encoding:
// x = INT_MAX, then x + 1 is INT_MIN. The int encoding once added signed values without
// wrapping and three presets answered TRUE here while BMC and k-induction answered FALSE.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    x = x + 1;
    if (x < 0) reach_error();
  }
  return 0;
}
