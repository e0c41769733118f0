// expect: 3:11: error: string literals are not supported
int main(void) {
  int x = "a" == 0;
  return x;
}
