extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i, j, c = 0;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      c++;
    }
  }
  if (c > n * n) reach_error();
  return 0;
}
