// expect: 4:3: error: call to function 'foo', which has no definition
int foo(int);
int main(void) {
  foo(1);
  return 0;
}
