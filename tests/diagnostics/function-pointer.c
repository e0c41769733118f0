// expect: 4:7: error: function pointers are not supported (variable 'g')
int f(int x) { return x; }
int main(void) {
  int (*g)(int) = f;
  return g(1);
}
