// expect: 3:14: error: syntax error at '}'
int main(void) {
  int x = 1 +}
