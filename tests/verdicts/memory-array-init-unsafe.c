// verdict: false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[5] = {0};
  for (int i = 1; i < 5; i++) a[i] = a[i - 1] + i;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 5) {
    if (a[k] > 6) reach_error(); /* a[4] == 10 */
  }
  return 0;
}
