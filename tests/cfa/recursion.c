extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int fib(int n) {
  if (n < 1) return 0;
  else if (n == 1) return 1;
  return fib(n - 1) + fib(n - 2);
}
int main(void) {
  int x = 5;
  int r = fib(x);
  if (r != 5) reach_error();
  return 0;
}
