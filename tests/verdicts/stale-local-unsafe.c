// verdict: false
// The second call's x is uninitialised (any value): an analysis that kept the value 5 from
// the first activation of f where it tracks x could answer TRUE (the value analysis forgets a
// callee's frame when it returns; `value::post`'s unit tests check the transfer itself).
extern void reach_error(void);
int f(int set) {
  int x;
  if (set) x = 5;
  return x;
}
int main(void) {
  f(1);
  int r = f(0);
  if (r != 5) reach_error();
  return 0;
}
