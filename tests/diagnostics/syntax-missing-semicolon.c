// expect: 4:3: error: syntax error at 'return'; expected ';', ',', '!='
int main(void) {
  int x = 1
  return x;
}
