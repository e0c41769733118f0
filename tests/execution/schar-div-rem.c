// C's truncating division and remainder of negative values, split by sign and residue.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int main(void) {
  signed char c = __VERIFIER_nondet_char();
  int q = c / 3;
  int r = c % 3;
  if (q * 3 + r != c) reach_error();
  if (c < 0 && r > 0) reach_error();
  if (q == -42 && r == -1) reach_error();
  return 0;
}
