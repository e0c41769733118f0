// Counting loop: after n iterations of adding 2, the sum is 2n.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_assert(int cond);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 1000);
  unsigned int i = 0;
  unsigned int sum = 0;
  while (i < n) {
    sum = sum + 2;
    i = i + 1;
  }
  __VERIFIER_assert(sum == 2 * n);
  return 0;
}
