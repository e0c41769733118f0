// expect: 4:3: warning: function 'foo' has no body: a call returns any value of its type
int foo(int);
int main(void) {
  foo(1);
  return 0;
}
