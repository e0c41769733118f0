// verdict: true
// An unsigned char widened to int keeps its range 0..255. Symbolic execution tracks only
// `v3` here, as a symbol of type unsigned char; its certificate (and witness invariant) must
// keep that range (`0 <= v3 <= 255`), or the check of its TRUE fails (fuzz program 3902).
extern void reach_error(void);
int main(void) {
  unsigned char v2 = 0;
  int v3 = v2;
  if (!(v3 <= 255)) reach_error();
  return 0;
}
