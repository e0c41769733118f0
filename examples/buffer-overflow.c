// An off-by-one buffer overflow: the loop copies len + 1 characters into buf[4].
// Writing past the end is undefined behaviour: the run ends with UNKNOWN naming the
// line and the access, not with a verdict about reach_error().
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  char buf[4];
  int len = __VERIFIER_nondet_int();
  if (len < 0 || len > 4) return 0;
  for (int i = 0; i <= len; i++)
    buf[i] = 'x';
  return 0;
}
