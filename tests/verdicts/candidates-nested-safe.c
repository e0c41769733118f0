// verdict: true
// only: kinduction portfolio
// SV-COMP's loop-invgen/nested6 pattern: the proof needs j >= 2*i (not octagonal: the
// coefficient 2) and k == n between the inner loops. k-induction finds both among the
// program's own conditions and assignments (j = 2*i gives j >= 2*i; k = j gives k >= j;
// the assertions give k <= n and k >= n), kept where they stay inductive.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i, j, k, n;
  k = __VERIFIER_nondet_int();
  n = __VERIFIER_nondet_int();
  if (!(n < 1000000)) return 0;
  if (k != n) return 0;
  for (i = 0; i < n; i++) {
    for (j = 2 * i; j < n; j++) {
      int inner = __VERIFIER_nondet_int();
      if (inner) {
        for (k = j; k < n; k++) {
          if (!(k >= 2 * i)) reach_error();
        }
      } else {
        if (!(k >= n)) reach_error();
        if (!(k <= n)) reach_error();
      }
    }
  }
  return 0;
}
