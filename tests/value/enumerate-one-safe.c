// One value satisfies c > 254: the solver-backed k = 1 pins it (the paper's "1" against the
// solver-free "1*", which learns only from equalities).
// run: domain=value max-enum=1* => unknown
// run: domain=value max-enum=1 => true
// run: domain=value max-enum=0 => true
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  if (c > 254) {
    if (c != 255) reach_error();
  }
  return 0;
}
