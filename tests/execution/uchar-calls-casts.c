extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
signed char g;
int twice(signed char a) { return a + a; }
int main(void) {
  unsigned char u = __VERIFIER_nondet_uchar();
  g = (signed char)(u + 100);
  int t = twice(g);
  _Bool b = t - 6;
  if (!b && u % 3 == 0) reach_error();
  if (u < 40 && (u ^ 5) == 0) reach_error();
  return 0;
}
