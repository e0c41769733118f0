// verdict: false
// An assignment whose value is unknown must forget the variable's old value (x = 1 stale
// after x = nondet would make the error unreachable).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = 1;
  int y = __VERIFIER_nondet_int();
  x = y + 0;
  if (x != 1) reach_error();
  return 0;
}
