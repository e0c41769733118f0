extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  unsigned char d = c * 3;
  if (d == 1) reach_error();
  return 0;
}
