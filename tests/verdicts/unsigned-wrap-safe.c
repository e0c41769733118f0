// verdict: true
// unknown-ok: value theta-expl-multiseq
// value: the proof is over a nondeterministic input; explicit values cannot refute the paths.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  unsigned char d = c + 1;
  __VERIFIER_assert(d != c);
  __VERIFIER_assert(c != 255 || d == 0);
  return 0;
}
