// expect: 3:10: error: calls of 'main' are not supported
int main(void) {
  return main();
}
