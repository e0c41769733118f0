// verdict: true
// count_by_k's shape: a small class is enumerated at the loop, whose runs are accelerated.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 10) return 0;
  int i = 0;
  while (i < 1000000 * k) i = i + k;
  if (i != 1000000 * k) reach_error();
  return 0;
}
