// A struct of two counters updated through a pointer: even + odd counts every call.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct counters { int even; int odd; };

void count(struct counters *c, int x) {
  if (x % 2 == 0) c->even++;
  else c->odd++;
}

int main(void) {
  struct counters c = {0, 0};
  int n = 0;
  while (n < 4) {
    count(&c, __VERIFIER_nondet_int());
    n++;
  }
  if (c.even + c.odd != n) reach_error();
  return 0;
}
