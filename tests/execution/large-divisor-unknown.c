// unknown: by 4294967291
// The divisor -5 converted to unsigned long: a split by residue would need 4294967291 parts
// (the fuzzer found the run stuck there); the run ends UNKNOWN at once.
extern short __VERIFIER_nondet_short(void);
unsigned long g1 = 0UL;
int main(void) {
  short v3 = __VERIFIER_nondet_short();
  g1++;
  char v4 = ((v3 * g1) / (-5));
  return 0;
}
