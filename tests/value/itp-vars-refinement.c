// Both refutations prove the lock-style program: value interpolation and the variables of
// the solver's sequence interpolants (the efficient-CEGAR paper's explicit domain).
// run: domain=value value-refinement=interpolation => true
// run: domain=value value-refinement=itp-vars => true
// run: domain=value value-refinement=itp-vars max-enum=1 => true
// run: value-refinement=interpolation => true
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int p = __VERIFIER_nondet_int();
  int lk = 0;
  while (__VERIFIER_nondet_int()) {
    if (p != 0) lk = 1;
    if (p != 0) {
      if (lk != 1) reach_error();
      lk = 0;
    }
  }
  return 0;
}
