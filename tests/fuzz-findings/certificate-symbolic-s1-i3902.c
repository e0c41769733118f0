// verdict: true
// fuzz: certificate from symbolic, found by `cpa fuzz --seed 1 --start 3902 --count 1`
// fuzz: symbolic: internal: certificate check failed: from state 11 at location 6: the block to location 7 does not preserve the invariant
// fuzz: minimized from 32 to 7 lines in 28 checks; verdicts now: predicate-lbe true, predicate-sbe true, predicate-abel true, impact true, bmc true, kinduction true, value true, symbolic unknown (internal: certificate check failed: from state 7 at location 3: the block to location 4 does not preserve the invariant), theta-pred-bw true, theta-expl-multiseq true, portfolio true, execution true
extern void reach_error(void);
int main(void) {
  unsigned char v2 = 0;
  int v3 = v2;
  if (!(v3 <= 255)) reach_error();
  return 0;
}
