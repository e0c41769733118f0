// verdict: false
// only: execution portfolio bmc
// unknown-ok: bmc
// The error needs 3 * (2^20 - 1) inner iterations: only loop acceleration (concrete execution,
// and the portfolio through it) reaches it; the nested counts are affine in the outer counter.
extern void reach_error(void);
int main(void) {
  unsigned int x = 0;
  unsigned int y = 0;
  unsigned int total = 0;
  while (x < 0xfffff) {
    y = 0;
    while (y < 3) {
      y++;
      total = total + 2;
    }
    x++;
  }
  if (total == 6 * 0xfffff) reach_error();
  return 0;
}
