// Nested loops run 10 * (2^28 - 1) iterations before the assertion is checked: no analysis can
// go through them one by one. The run reads no input, so it is the program's only execution
// and concrete execution decides it; once one iteration of a loop has shown that it changes
// every variable by a constant, the iterations after it are skipped by their closed form.
extern void reach_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond) {
    reach_error();
  }
}
int main(void) {
  unsigned int x = 0;
  unsigned int y = 0;
  while (x < 0x0fffffff) {
    y = 0;
    while (y < 10) {
      y++;
    }
    x++;
  }
  __VERIFIER_assert(x % 2 == 0);
  return 0;
}
