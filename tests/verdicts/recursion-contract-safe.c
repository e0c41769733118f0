// verdict: true
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact bmc value symbolic theta-pred-bw theta-expl-multiseq execution
// Mutual recursion over any input (SV-COMP's recursive-simple/id2_b2_o3 pattern): no depth
// bound covers every input. k-induction proves it with function contracts: id and id2
// return at most 2 (checked on their bodies, their own calls replaced by the contracts).
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
  if (result == 3) reach_error();
  return 0;
}
