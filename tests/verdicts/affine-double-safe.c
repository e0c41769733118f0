// verdict: true
// only: kinduction portfolio
// The textbook exercise `j == 2*i` (issue 54): no interval, octagon or program atom states
// it; Karr's affine equalities at the loop head do, Houdini keeps them, and k-induction's
// invariant phase proves the program (predicate-lbe and impact refine without end here).
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned i = 0, j = 0;
  while (i < n) { i++; j += 2; }
  if (j != 2 * i) reach_error();
  return 0;
}
