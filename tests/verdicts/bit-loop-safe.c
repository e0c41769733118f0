// verdict: true
// The bits of x collected one by one: `1 << c` with a variable c and `x & i` have no exact
// linear-integer form, so the `auto` encoding of the predicate presets chooses bit-vectors
// (with the int encoding, interpolation over the over-approximation fails).
extern void __VERIFIER_assert(int cond);
int main(void) {
  unsigned char x = 37;
  unsigned char y = 0;
  unsigned char c = 0;
  while (c < (unsigned char)8) {
    unsigned char i = ((unsigned char)1) << c;
    if ((x & i) != 0) {
      y = y + i;
    }
    c = c + 1;
  }
  __VERIFIER_assert(x == y);
  return 0;
}
