// expect: 3:12: error: floating-point constants are not supported
int main(void) {
  int x = (1.5 > 1);
  return x;
}
