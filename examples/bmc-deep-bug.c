// The bug needs 30 loop iterations. Bounded model checking finds it by unrolling to k = 30;
// lazy predicate abstraction would refine once per iteration.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  while (__VERIFIER_nondet_int()) {
    x++;
    if (x == 30) reach_error();
  }
  return 0;
}
