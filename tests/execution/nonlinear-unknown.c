// unknown: a product of two input-dependent values
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x * x == 49) reach_error();
  return 0;
}
