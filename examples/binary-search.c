// Binary search in a sorted array: a found index holds the key,
// and a key that is in the array is found.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a[8];
  for (int k = 0; k < 8; k++)
    a[k] = 3 * k;
  int key = __VERIFIER_nondet_int();
  int lo = 0, hi = 7, found = -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) { found = mid; break; }
    if (a[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  if (found >= 0 && a[found] != key) reach_error();
  if (key == 12 && found != 4) reach_error();
  return 0;
}
