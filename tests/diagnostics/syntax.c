// expect: 3:14: error: syntax error at '}'; expected an expression
int main(void) {
  int x = 1 +}
