// expect: 3:7: error: arrays are not supported (variable 'a')
int main(void) {
  int a[3] = {1, 2, 3};
  return 0;
}
