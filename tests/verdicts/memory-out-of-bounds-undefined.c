// verdict: undefined
// unknown-ok: theta-expl-multiseq
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int buf[4];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  for (int i = 0; i < n; i++) buf[i] = i;
  buf[n] = 0; /* n == 4 writes past the end */
  return 0;
}
