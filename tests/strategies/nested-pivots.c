extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0;
  int y = 0;
  int z = __VERIFIER_nondet_int();
  if (z > 0) { if (x == 1) reach_error(); } else { if (y == 1) reach_error(); }
  return 0;
}
