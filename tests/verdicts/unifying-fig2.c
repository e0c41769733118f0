// verdict: true
// The running example of the unifying-view paper (Fig. 2, reconstructed in the digest):
// x and y are incremented together, so x != y is unreachable.
extern void reach_error(void);
int main(void) {
  int x = 0;
  int y = 0;
  while (x < 2) {
    x++;
    y++;
    if (x != y) {
      reach_error();
    }
  }
  return 0;
}
