// expect: 3:16: error: syntax error at ';'; expected an expression
int main(void) {
  int x = (1 + ;
  return x;
}
