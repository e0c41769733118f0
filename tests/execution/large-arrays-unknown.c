// unknown: too large to record
// Two arrays of 1,024 cells copied in a loop, then an assertion that fails (SV-COMP's
// loop-acceleration/array_2-1-simple pattern). The run reaches the error, but its replay
// records every variable in scope at every step, and every array read is a case split over
// the cells: over 20 million values. The replay stops at that bound and the run ends UNKNOWN
// (before the bound: 3.5 GB of memory and no end within five minutes on the 2,048-cell task).
extern void reach_error(void);
int main(void) {
  int A[1024] = {0};
  int B[1024] = {0};
  int i;
  int tmp;
  for (i = 0; i < 1024; i++) {
    tmp = A[i];
    B[i] = tmp;
  }
  if (A[512] == B[512]) reach_error();
  return 0;
}
