// verdict: true
// unknown-ok: predicate-sbe theta-expl-multiseq
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[5];
  for (int i = 0; i < 5; i++) a[i] = 2 * i;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 5) {
    if (a[k] != 2 * k) reach_error();
  }
  return 0;
}
