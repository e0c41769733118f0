// The enumeration finds the bug's value among the four; every setting answers FALSE.
// run: domain=value max-enum=1* => false
// run: domain=value max-enum=1 => false
// run: domain=value max-enum=4 => false
// run: domain=value max-enum=0 => false
// run: max-enum=1* => false
// run: max-enum=4 => false
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  if (c > 251) {
    if (c == 254) reach_error();
  }
  return 0;
}
