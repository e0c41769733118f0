// verdict: true
extern void reach_error(void);
int length(const char *s) {
  int n = 0;
  while (s[n] != 0) n++;
  return n;
}
int main(void) {
  const char *s = "abc";
  if (length(s) != 3) reach_error();
  if (s[1] != 'b') reach_error();
  return 0;
}
