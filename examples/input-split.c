// Input splitting: concrete execution runs the program for every value of n at once. The
// class n in [1, 100] goes round the loop; at each test i <= n the value n = i - 1 leaves it
// as a concrete run, which checks the assertion for that n.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int sum = 0;
  for (int i = 1; i <= n; i++) {
    sum = sum + i;
  }
  if (2 * sum != n * (n + 1)) reach_error();
  return 0;
}
