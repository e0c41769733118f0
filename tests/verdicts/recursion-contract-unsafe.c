// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc kinduction value symbolic theta-pred-bw theta-expl-multiseq execution
// The twin of recursion-contract-safe.c whose error is reachable (input 2): the contracts
// (id and id2 return at most 2) hold, and main with them is not safe, so no proof.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned int id2(unsigned int x);
unsigned int id(unsigned int x) {
  if (x == 0) return 0;
  unsigned int ret = id2(x - 1) + 1;
  if (ret > 2) return 2;
  return ret;
}
unsigned int id2(unsigned int x) {
  if (x == 0) return 0;
  unsigned int ret = id(x - 1) + 1;
  if (ret > 2) return 2;
  return ret;
}
int main(void) {
  unsigned int input = __VERIFIER_nondet_uint();
  unsigned int result = id(input);
  if (result == 2) reach_error();
  return 0;
}
