// verdict: true
// unknown-ok: value theta-expl-multiseq
// value: the assertions are over a nondeterministic input; explicit values cannot refute the paths.
// C division truncates toward zero; the remainder has the dividend's sign.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a > -100 && a < 0) {
    __VERIFIER_assert(a / 2 <= 0);
    __VERIFIER_assert(a % 2 <= 0);
    __VERIFIER_assert((a / 2) * 2 + a % 2 == a);
  }
  __VERIFIER_assert(-7 / 2 == -3 && -7 % 2 == -1);
  return 0;
}
