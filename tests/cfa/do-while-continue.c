extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i = 0, s = 0;
  do {
    i++;
    if (i % 2 == 0) continue;
    s += i;
    if (s > 100) break;
  } while (i < 20);
  if (s < 0) reach_error();
  return 0;
}
