// verdict: false
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);
int g = 0;
void bump(int by) { g = g + by; }
int main(void) {
  int k = __VERIFIER_nondet_int();
  bump(3);
  if (k > 0) bump(4);
  __VERIFIER_assert(g != 7);
  return 0;
}
