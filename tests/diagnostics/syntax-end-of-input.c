// expect: 5:1: error: syntax error at end of input; expected ';', '}', an expression, a type, '{'
int main(void) {
  if (1) {
  return 0;
