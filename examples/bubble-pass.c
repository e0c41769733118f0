// One pass of bubble sort's inner loop moves the largest element to the end.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a[4];
  for (int k = 0; k < 4; k++)
    a[k] = __VERIFIER_nondet_int();
  for (int j = 0; j + 1 < 4; j++) {
    if (a[j] > a[j + 1]) {
      int t = a[j];
      a[j] = a[j + 1];
      a[j + 1] = t;
    }
  }
  for (int k = 0; k < 3; k++)
    if (a[k] > a[3]) reach_error();
  return 0;
}
