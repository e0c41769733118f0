// Explicit values cannot refute the error path (x and y are inputs): the explicit analysis
// alone gives up. The `value` preset's combination with predicate abstraction refines the
// path with predicate interpolants (x == y at the loop head), while the value part tracks i.
// run: domain=value => unknown
// run: domain=value-predicate => true
// run: block=loop-heads => true
// run: trace-refinement=bw-bin-itp => true
// run: precision-scope=function => true
// run: prune=full => true
// run: max-enum=1 => true
// Bit-vector interpolants of this loop are beyond Z3's quantifier elimination (a quantifier
// is left): the path stays undecided, with that reason, and the solver context is reset.
// run: encoding=bv => unknown
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x;
  int i = 0;
  while (i < 10) {
    x = x + 1;
    y = y + 1;
    i = i + 1;
  }
  if (x != y) reach_error();
  return 0;
}
