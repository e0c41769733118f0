// verdict: false
// unknown-ok: execution
// Inputs stored into array cells through an index: the violation witness states each value
// for the cell written (x[0] == ..., x[1] == ...), and the validator replays them in order.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x[3];
  for (int i = 0; i < 3; i++) x[i] = __VERIFIER_nondet_int();
  if (x[0] + x[1] + x[2] == 7 && x[1] == 5) reach_error();
  return 0;
}
