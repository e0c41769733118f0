// verdict: false
// only: kinduction bmc portfolio
// The twin of samples-half-safe.c whose loop runs to 2*k + 1: for k = 0 the loop runs
// once and n == 1 != k, so no candidate set may prove it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i = 0;
  int n = 0;
  int k = __VERIFIER_nondet_int();
  if (!(k <= 1000000 && k >= -1000000)) return 0;
  for (i = 0; i < 2 * k + 1; i++) {
    if (i % 2 == 0) n++;
  }
  if (!(k < 0 || n == k)) reach_error();
  return 0;
}
