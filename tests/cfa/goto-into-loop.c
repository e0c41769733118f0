// A goto into the middle of a loop body (as in the systemc tasks): the loop has two entries.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 0;
  int y = __VERIFIER_nondet_int();
  if (y > 0) goto inside;
  while (x < 10) {
    x = x + 2;
  inside:
    x = x - 1;
  }
  if (x < 0) reach_error();
  return 0;
}
