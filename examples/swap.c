// Swap through pointers: after swap(&a, &b) the values are exchanged.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void swap(int *p, int *q) {
  int t = *p;
  *p = *q;
  *q = t;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int a0 = a, b0 = b;
  swap(&a, &b);
  if (a != b0 || b != a0) reach_error();
  return 0;
}
