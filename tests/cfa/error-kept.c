// The error location has a single incoming edge and no outgoing edge: Rule 1 must keep it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 42) reach_error();
  return 0;
}
