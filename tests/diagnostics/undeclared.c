// expect: 3:10: error: use of undeclared identifier 'y'
int main(void) {
  return y;
}
