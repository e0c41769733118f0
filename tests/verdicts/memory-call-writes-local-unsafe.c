// verdict: false
// A callee increments the caller's local through a pointer: the interval, octagon and affine
// analyses must forget what a call may write in memory, not only the globals. (They kept
// x == 0 at the loop head, and k-induction, assuming that invariant, answered TRUE.)
extern void reach_error(void);
void inc(int *p) { (*p)++; }
int main(void) {
  int x = 0;
  int n = 0;
  while (n < 3) {
    inc(&x);
    n++;
  }
  if (x == 3) reach_error();
  return 0;
}
