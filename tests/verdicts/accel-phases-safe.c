// verdict: true
// only: execution portfolio bmc
// unknown-ok: bmc
// Two phases of one loop (steps of 1, then of 2) and a countdown: 2^20 iterations that loop
// acceleration skips phase by phase; the run ends without the error, so the program is safe.
extern void reach_error(void);
int main(void) {
  unsigned int x = 0;
  int down = 1000000;
  while (x < 0x100000) {
    if (x < 0x1000) {
      x++;
    } else {
      x += 2;
    }
  }
  while (down > 0) {
    down = down - 3;
  }
  if (x % 2 != 0 || down > 0 || down < -2) reach_error();
  return 0;
}
