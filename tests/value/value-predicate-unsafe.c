// The bug needs eight iterations of a loop over an input: the explicit analysis and its
// combination with predicate abstraction both find it and replay it concretely.
// run: domain=value => false
// run: domain=value-predicate => false
// run: block=loop-heads => false
// run: trace-refinement=multi-seq => false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x;
  int i = 0;
  while (i < 10) {
    x = x + 1;
    if (i != 7) y = y + 1;
    i = i + 1;
  }
  if (x != y) reach_error();
  return 0;
}
