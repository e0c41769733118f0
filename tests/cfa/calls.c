// Call and return edges are barriers for LBE: call sites, return sites, entries and exits stay.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);
int twice(int a) {
  int r = a + a;
  return r;
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = twice(x);
  int z = twice(y) + 1;
  __VERIFIER_assert(z != 2);
  return 0;
}
