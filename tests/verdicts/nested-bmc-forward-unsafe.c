// verdict: false
// unknown-ok: predicate-lbe predicate-sbe predicate-abel impact
// Regression: the inner loop's counter accumulates across outer iterations, so BMC merges
// states after expanding them; a merge that dropped paths of merged descendants once made the
// forward condition unsatisfiable here and BMC answered TRUE.
extern void reach_error(void);
int main(void) {
  unsigned int x = 0;
  unsigned int y = 0;
  while (x < 3) {
    y = 0;
    while (y < 2) {
      y++;
    }
    x++;
  }
  if (x % 2) reach_error();
  return 0;
}
