// Linear search: when the loop stops before the end, a[i] is the key.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a[5];
  for (int k = 0; k < 5; k++)
    a[k] = __VERIFIER_nondet_int();
  int key = __VERIFIER_nondet_int();
  int i = 0;
  while (i < 5 && a[i] != key)
    i++;
  if (i < 5 && a[i] != key) reach_error();
  return 0;
}
