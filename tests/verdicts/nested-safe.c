// verdict: true
// unknown-ok: kinduction
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  unsigned int i, j, n = __VERIFIER_nondet_uint();
  if (n > 5) return 0;
  for (i = 0; i < n; i++) {
    for (j = i; j < n; j++) {
      __VERIFIER_assert(j >= i);
    }
  }
  return 0;
}
