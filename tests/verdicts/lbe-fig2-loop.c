// verdict: true
// unknown-ok: bmc execution
// BMC: the loop has no bound, so the forward condition never holds.
// The loop of the LBE paper's Figure 2 with a property: z is always 0 or 1.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int z = 0;
  while (i > 0) {
    if (x == 1) {
      z = 0;
    } else {
      z = 1;
    }
    i = i - 1;
  }
  if (z != 0 && z != 1) reach_error();
  return 0;
}
