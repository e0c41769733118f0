extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char u = __VERIFIER_nondet_uchar();
  unsigned char d = u / 4;
  if (d == 17 && u % 4 == 3) reach_error();
  return 0;
}
