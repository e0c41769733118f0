// expect: 5:3: error: unions whose members have different layouts
union U { int i; char c[4]; };
int main(void) {
  union U u;
  u.c[0] = 1;
  return u.i;
}
