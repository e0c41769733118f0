// Figure 2 of Beyer et al., "Software Model Checking via Large-Block Encoding":
// the loop body (an if-then-else and a decrement) becomes a single summary edge
// from the loop head back to itself.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int i = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int z;
  while (i > 0) {
    if (x == 1) z = 0; else z = 1;
    i = i - 1;
  }
  if (i > 0) reach_error();
  return 0;
}
