// `x == 3` teaches x = 3 without a solver, so the contradiction with x != 3 is seen.
// run: domain=value max-enum=1* => true
// run: domain=value max-enum=1 => true
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 3) {
    if (x != 3) reach_error();
  }
  return 0;
}
