// Euclid's algorithm by subtraction: the result divides both inputs and is positive.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_assert(int cond);

unsigned int gcd(unsigned int a, unsigned int b) {
  while (a != b) {
    if (a > b) {
      a = a - b;
    } else {
      b = b - a;
    }
  }
  return a;
}

int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned int b = __VERIFIER_nondet_uint();
  __VERIFIER_assume(a > 0 && b > 0);
  unsigned int g = gcd(a, b);
  __VERIFIER_assert(g > 0);
  __VERIFIER_assert(g <= a && g <= b);
  return 0;
}
