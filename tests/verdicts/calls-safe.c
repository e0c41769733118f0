// verdict: true
// unknown-ok: value theta-expl-multiseq
// value: b == a || b == -a over a nondeterministic a is beyond explicit values.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);
int abs_value(int v) {
  if (v < 0) return -v;
  return v;
}
int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a < -1000 || a > 1000) return 0;
  int b = abs_value(a);
  __VERIFIER_assert(b >= 0);
  __VERIFIER_assert(b == a || b == -a);
  return 0;
}
