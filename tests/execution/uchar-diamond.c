// diamond_1-2's shape: u % 2 splits the class by residue, each part's loop runs once.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char u = __VERIFIER_nondet_uchar();
  unsigned int x = 0;
  while (x < 99) {
    if (u % 2 == 0) {
      x++;
    } else {
      x += 2;
    }
  }
  if ((x % 2) != (u % 2)) reach_error();
  return 0;
}
