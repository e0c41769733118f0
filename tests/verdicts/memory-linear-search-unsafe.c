// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int find(int *a, int n, int x) {
  for (int i = 0; i < n; i++)
    if (a[i] == x) return i;
  return -1;
}
int main(void) {
  int a[4] = {3, 1, 4, 1};
  int x = __VERIFIER_nondet_int();
  int r = find(a, 4, x);
  if (r >= 0 && a[r] != x) reach_error();
  if (r == 3) reach_error(); /* reachable? no: 1 is found at index 1 first */
  if (r == 2 && x == 4) reach_error(); /* reachable */
  return 0;
}
