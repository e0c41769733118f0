extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x;
  int y;
  int z = __VERIFIER_nondet_int();
  if (z > 0) { x = 0; if (x == 1) reach_error(); } else { y = 0; if (y == 1) reach_error(); }
  return 0;
}
