// Predicate abstraction needs several refinements here: each spurious path teaches a
// predicate about i or x, until the loop's values are tracked well enough to prove x == 8.
extern void reach_error(void);
int main(void) {
  int i = 0;
  int x = 0;
  while (i < 4) {
    i++;
    x = x + 2;
  }
  if (x != 8) reach_error();
  return 0;
}
