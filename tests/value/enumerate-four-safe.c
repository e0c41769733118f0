// The efficient-CEGAR paper's Fig. 4 (left) in one assumption: c > 251 leaves four values of
// an unsigned char, and none of them is below 100. The classic value analysis (1*) cannot
// refute the path (c stays unknown); the solver's enumeration of at most k >= 4 values can.
// The `value` preset's combination with predicate abstraction needs no refinement: the
// error location ends a block, and the block's satisfiability check excludes the path.
// run: domain=value max-enum=1* => unknown
// run: domain=value max-enum=1 => unknown
// run: domain=value max-enum=3 => unknown
// run: domain=value max-enum=4 => true
// run: domain=value max-enum=50 => true
// run: domain=value max-enum=0 => true
// run: max-enum=1* => true
// run: domain=value-predicate max-enum=4 => true
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  if (c > 251) {
    if (c < 100) reach_error();
  }
  return 0;
}
