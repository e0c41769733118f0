// A buggy maximum: the else branch returns the wrong variable, so the
// assertion fails whenever b > a.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

int max(int a, int b) {
  if (a >= b) {
    return a;
  } else {
    return a;
  }
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int m = max(a, b);
  __VERIFIER_assert(m >= a && m >= b);
  return 0;
}
