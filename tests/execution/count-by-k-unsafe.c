// verdict: false
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 10) return 0;
  int i = 0;
  while (i < 1000000 * k) i = i + k;
  if (i == 7000000) reach_error();
  return 0;
}
