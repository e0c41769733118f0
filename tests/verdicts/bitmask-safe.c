// verdict: true
// unknown-ok: value theta-expl-multiseq execution
// value: the proof needs a relation between the bits of a nondeterministic x, which explicit values cannot express.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int low = x & 255u;
  unsigned int high = x >> 8;
  __VERIFIER_assert(low < 256u);
  __VERIFIER_assert((high << 8) + low == x);
  return 0;
}
