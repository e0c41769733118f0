// verdict: false
// unknown-ok: execution
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void swap(int *p, int *q) {
  int t = *p;
  *p = *q;
  *q = *p; /* bug: should be t */
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int x0 = x;
  swap(&x, &y);
  if (y != x0) reach_error();
  return 0;
}
