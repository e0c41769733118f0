extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0;
  int a = __VERIFIER_nondet_int();
  int b = a + 1;
  int c = b + a;
  if (x > 5) reach_error();
  return 0;
}
