// expect: 3:14: error: pointers are not supported
int main(void) {
  int x; x = *&x;
  return 0;
}
