// verdict: true
// only: kinduction portfolio
// SV-COMP's loop-invgen/half_2 pattern (issue 54): the first loop halves k's distance to
// n, the second counts it down. The proof needs Karr's 2*k + i + 2*j == 2*n and two
// disjunctions a run suggests: n - i >= -1 || i == 0 (the first loop stops at n or n + 1
// unless it never ran) and n + k >= 1 || i == 0.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n, i, k;
  n = __VERIFIER_nondet_int();
  if (!(n <= 1000000)) return 0;
  k = n;
  i = 0;
  while (i < n) {
    k--;
    i = i + 2;
  }
  int j = 0;
  while (j < n / 2) {
    if (!(k > 0)) reach_error();
    k--;
    j++;
  }
  return 0;
}
