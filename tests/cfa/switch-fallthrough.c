extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);
int main(void) {
  int s = __VERIFIER_nondet_int();
  int r = 0;
  switch (s) {
    case 0:
      r = r + 1;
    case 1:
      r = r + 2;
      break;
    case 2:
    case 3:
      r = 10;
      break;
    default:
      r = -1;
  }
  __VERIFIER_assert(r != 5);
  return r;
}
