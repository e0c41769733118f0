extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char u = __VERIFIER_nondet_uchar();
  unsigned int x = u;
  unsigned int steps = 0;
  while (x != 0) {
    x = x - 1;
    steps = steps + 2;
  }
  if (steps != 2u * u) reach_error();
  return 0;
}
