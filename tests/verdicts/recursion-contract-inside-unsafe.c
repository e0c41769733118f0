// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction value symbolic theta-pred-bw theta-expl-multiseq execution
// The error is inside the recursive function (reached for x = 3): main is safe with f
// replaced by its contract (f returns at most 3), so the check of f's own body must find it.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned int f(unsigned int x) {
  if (x == 0) return 0;
  unsigned int r = f(x - 1);
  if (r == 2) reach_error();
  if (r >= 3) return 3;
  return r + 1;
}
int main(void) {
  unsigned int r = f(__VERIFIER_nondet_uint());
  if (r > 3) reach_error();
  return 0;
}
