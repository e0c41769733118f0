// expect: 2:8: warning: type specifier missing for '__VERIFIER_nondet_int': 'int' assumed
extern __VERIFIER_nondet_int();
int main(void) { return __VERIFIER_nondet_int(); }
