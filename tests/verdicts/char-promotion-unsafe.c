// verdict: false
// (char)200 is -56 with a signed char.
extern void reach_error(void);
int main(void) {
  char c = (char)200;
  int i = c;
  if (i < 0) reach_error();
  return 0;
}
