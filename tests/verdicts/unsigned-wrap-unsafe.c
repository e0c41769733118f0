// verdict: false
// unsigned arithmetic wraps: 0 - 1 is UINT_MAX.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x - 1;
  __VERIFIER_assert(y < x);
  return 0;
}
