// verdict: false
// The loop of kinduction-do-while-unsafe.c written with a backward goto.
extern void reach_error(void);
int main(void) {
  int n = 1;
loop:
  n = n + 4;
  if (n < 15) goto loop;
  if (n == 17) reach_error();
  return 0;
}
