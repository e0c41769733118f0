// Side effects inside expressions: temporaries, short-circuit with calls, ternary with calls.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g;
int bump(void) { g++; return g; }
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = a++ + ++a;
  int c = (a > 0 && bump() > 1) ? bump() : 0;
  unsigned char u = 250;
  u += 10;
  if (u != 4) reach_error();
  return b + c;
}
