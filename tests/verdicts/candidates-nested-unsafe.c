// verdict: false
// only: kinduction bmc predicate-lbe portfolio
// The twin of candidates-nested-safe.c whose inner loop starts one lower (j = 2*i - 1):
// for i = 1 and n = 3, k = j = 1 < 2*i, so the error is reachable and no candidate set
// may prove it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i, j, k, n;
  k = __VERIFIER_nondet_int();
  n = __VERIFIER_nondet_int();
  if (!(n < 1000000)) return 0;
  if (k != n) return 0;
  for (i = 0; i < n; i++) {
    for (j = 2 * i - 1; j < n; j++) {
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
