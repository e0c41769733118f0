// expect: 3:3: error: use of undeclared label 'nowhere'
int main(void) {
  goto nowhere;
}
