// A wrong TRUE found and mended (2026-11-27): random concrete runs reach the error; with the
// normal-form retry of unknown queries (removed in commit 2087d79) bmc and kinduction answered
// TRUE after about 30 s. Now both answer UNKNOWN (solver: canceled); open only for liveness.
// verdict: false
// fuzz: stuck from kinduction, found by `cpa fuzz --seed 43 --start 228 --count 1`
// fuzz: kinduction: no verdict after 15 s: 84 units done, 119 solver calls; the current unit has run 14.1 s, the current solver call 0.1 s
// fuzz: minimized from 56 to 50 lines in 12 checks; verdicts now: kinduction stuck (no verdict after 15 s: 82 units done, 104 solver calls; the current unit has run 14.2 s, the current solver call 0.4 s)
extern void reach_error(void);
extern void __VERIFIER_assume(int cond);
extern long long __VERIFIER_nondet_longlong(void);
void f1(long long p2, int p3) {
  __VERIFIER_assume((((-13) + p3) > p2));
  p2 = p3;
  {
    int i4 = 0;
    do {
      p2++;
      p3 = (p3 - ((p2 - i4) - (p3 & p2)));
      if ((((p3 - p2) * i4) == p3)) {
      }
      i4++;
    } while (i4 < 5);
  }
}
int main(void) {
  long long v5 = __VERIFIER_nondet_longlong();
  if ((-1LL)) {
    if ((v5 <= (v5 - v5))) {
      unsigned int v6 = ((v5 + v5) ^ (v5 & v5));
      f1(((long long)(v6 / (-2))), (~(-1055022644)));
      v6 = v5;
    } else {
      for (int i7 = 0; i7 < 4; i7++) {
        unsigned int v8 = ((-1L) - (v5 ^ 4));
      }
      v5 = (((v5 + 1071170381135366059ULL) + (!v5)) & (((v5 >= 1LL) ? 2147483647 : (-1L)) / 8));
    }
  }
  v5 = ((v5 == 0 || v5 == -1) ? (((!262144) < ((-1) > v5)) ? (511 - v5) : (-2147483645)) : ((((!262144) < ((-1) > v5)) ? (511 - v5) : (-2147483645)) % v5));
  if ((1 <= (-10))) goto L9;
  v5 = ((v5 == 8193) + (((unsigned long)v5) >= v5));
  L9:;
  {
    int i10 = 0;
    L13:;
      f1(v5, v5);
      v5 = ((unsigned int)i10);
      {
        f1(((long long)(i10 - (7 & ((unsigned char)251)))), 8388607);
        v5 = __VERIFIER_nondet_longlong();
      }
    i10++;
    if (i10 < 4) goto L13;
  }
  if (!(v5 != 1LL)) reach_error();
  return 0;
}
