// Array initialisation: every cell a[i] holds 2 * i after the loop.
// The loop invariant: a[k] == 2 * k for every k < i.
extern void reach_error(void);

int main(void) {
  int a[6];
  for (int i = 0; i < 6; i++)
    a[i] = 2 * i;
  for (int j = 0; j < 6; j++)
    if (a[j] != 2 * j) reach_error();
  return 0;
}
