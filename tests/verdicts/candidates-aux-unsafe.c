// verdict: false
// only: kinduction bmc predicate-lbe portfolio
// SV-COMP's loop-acceleration/diamond_1-2 pattern, with fewer iterations: for an odd y the
// loop ends with an even x, and the assertion fails. The candidate invariant y % 2U >= 0U
// (from the condition y % 2 == 0) once made the correctness check confirm a proof: the
// invariant's auxiliary values for y % 2 took the same names as the path's own, their
// definitions contradicted each other, and every path from the loop head looked infeasible.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned int x = 0;
  unsigned int y = __VERIFIER_nondet_uint();
  while (x < 9) {
    if (y % 2 == 0) {
      x++;
    } else {
      x += 2;
    }
  }
  if (!((x % 2) == (y % 2))) reach_error();
  return 0;
}
