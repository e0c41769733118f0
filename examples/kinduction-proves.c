// After the loop, i == n, for any n. k-induction proves it with k = 1: after any iteration
// i <= n, so leaving the loop means i == n. BMC cannot: no bound covers every n.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  while (i < n) {
    i++;
  }
  if (i != n) reach_error();
  return 0;
}
