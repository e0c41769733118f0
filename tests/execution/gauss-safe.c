// verdict: true
// gauss_sum's shape: the class of n is peeled one value per iteration.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 300) return 0;
  int sum = 0;
  for (int i = 1; i <= n; i++) sum = sum + i;
  if (2 * sum != n * (n + 1)) reach_error();
  return 0;
}
