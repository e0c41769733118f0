// expect: 5:7: error: variable-length arrays are not supported (variable 'a')
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int a[n];
  return 0;
}
