// verdict: false
extern void reach_error(void);
int main(void) {
  int i, j, c = 0;
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 3; j++) {
      c++;
    }
  }
  if (c == 9) reach_error();
  return 0;
}
