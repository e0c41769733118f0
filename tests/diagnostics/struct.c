// expect: 5:3: error: structs and unions are not supported
struct S { int f; };
int main(void) {
  struct S s;
  s.f = 1;
  return 0;
}
