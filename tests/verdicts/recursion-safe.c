// verdict: true
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact kinduction
extern void reach_error(void);
int sum(int n) {
  if (n <= 0) return 0;
  return n + sum(n - 1);
}
int main(void) {
  int r = sum(4);
  if (r != 10) reach_error();
  return 0;
}
