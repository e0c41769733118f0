// verdict: false
// only: kinduction bmc portfolio predicate-lbe
// The twin of affine-double-safe.c whose loop adds 3: Karr's analysis finds j == 3 * i,
// which must not make the false claim j == 2 * i provable; the first iteration reaches the
// error.
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned i = 0, j = 0;
  while (i < n) { i++; j += 3; }
  if (j != 2 * i) reach_error();
  return 0;
}
