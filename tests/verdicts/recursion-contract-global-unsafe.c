// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction value symbolic theta-pred-bw theta-expl-multiseq execution
// The recursive function counts its calls in a global (g == 3 for n = 3): a contract that
// speaks only of the return value must let the call change every global.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 0;
int f(int n) {
  if (n <= 0) return 0;
  g = g + 1;
  int r = f(n - 1);
  if (r > 1) return 1;
  return r;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  int r = f(n);
  if (r <= 1 && g == 3) reach_error();
  return 0;
}
