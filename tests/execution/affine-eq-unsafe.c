// verdict: false
// 3x == 28 (mod 2^32) has one solution, far from small values.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 3 * x - 7;
  if (y == 21) reach_error();
  return 0;
}
