// verdict: true
// only: kinduction portfolio
// SV-COMP's loop-new/half pattern (issue 54): n grows every other iteration, so the proof
// needs 0 <= 2*n - i <= 1 (no affine equality, not octagonal) and i <= 2*k once the loop
// has run (a disjunction: i == 0 before). Concrete runs of the program suggest both
// (proof/samples.rs); Houdini keeps them because they are inductive.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i = 0;
  int n = 0;
  int k = __VERIFIER_nondet_int();
  if (!(k <= 1000000 && k >= -1000000)) return 0;
  for (i = 0; i < 2 * k; i++) {
    if (i % 2 == 0) n++;
  }
  if (!(k < 0 || n == k)) reach_error();
  return 0;
}
