// verdict: false
// unknown-ok: execution theta-expl-multiseq
// Inputs read inside compound conditions, after their first test: no variable holds them,
// so a violation witness states the direction of each statement as a branching waypoint,
// and the replay picks values that send the run that way (0 would not reach the error).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int hits = 0;
  if (x > 0 && __VERIFIER_nondet_int()) hits++;
  if (x < 100 && __VERIFIER_nondet_int() > 7) hits++;
  while (x > 1 && __VERIFIER_nondet_int() != 0) {
    hits++;
    x--;
  }
  if (hits >= 4) reach_error();
  return 0;
}
