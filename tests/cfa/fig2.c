// Figure 2 of the LBE paper: the loop body collapses into a self-loop on the loop head.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int i = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int z;
  while (i > 0) {
    if (x == 1) {
      z = 0;
    } else {
      z = 1;
    }
    i = i - 1;
  }
  return 0;
}
