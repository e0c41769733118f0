// verdict: false
// The error needs four iterations (n = 1, 5, 9, 13, 17). k-induction once proved this at
// k = 1: the step case asserted the interval invariant n <= 14 at a cut loop-head state whose
// SSA constant the error path shares (n#2 == 17), refuting the real error path.
extern void reach_error(void);
int main(void) {
  int n = 1;
  do {
    n = n + 4;
  } while (n < 15);
  if (n == 17) reach_error();
  return 0;
}
