extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int main(void) {
  signed char c = __VERIFIER_nondet_char();
  signed char s = 0;
  int n = 0;
  while (c > 0 && n < 300) {
    s = s + c;
    c = c - 7;
    n++;
  }
  if (s == -100) reach_error();
  return 0;
}
