// Figure 1 of Beyer et al., "Software Model Checking via Large-Block Encoding":
// with single-block encoding the ART grows exponentially in the number of ifs,
// with LBE the whole program is one block.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int p1 = __VERIFIER_nondet_int();
  int p2 = __VERIFIER_nondet_int();
  int p3 = __VERIFIER_nondet_int();
  int x1, x2, x3;
  if (p1) {
    x1 = 1;
  }
  if (p2) {
    x2 = 2;
  }
  if (p3) {
    x3 = 3;
  }
  if (p1) {
    if (x1 != 1) goto ERR;
  }
  if (p2) {
    if (x2 != 2) goto ERR;
  }
  if (p3) {
    if (x3 != 3) goto ERR;
  }
  return 0;
ERR:
  reach_error();
  return 1;
}
