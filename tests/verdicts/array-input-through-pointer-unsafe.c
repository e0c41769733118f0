// verdict: false
// unknown-ok: predicate-abel impact execution
// Inputs stored into the caller's array through a pointer parameter: the cells are out of the
// callee's scope, so the violation witness states each value through the pointer
// (p[0] == 3, p[1] == 5, p[2] == 8), and the validator replays them in order. predicate-abel
// and IMPACT give up on the interpolants of the guarded cell stores (quantifier elimination).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void fill(int *p) {
  for (int i = 0; i < 3; i++) p[i] = __VERIFIER_nondet_int();
}
int main(void) {
  int a[3];
  fill(a);
  if (a[0] == 3 && a[1] == 5 && a[2] == 8) reach_error();
  return 0;
}
