// verdict: true
// unknown-ok: bmc kinduction
// walk(4) never recurses: the path to the recursive call is infeasible. CEGAR refines the
// call beyond the recursion bound like a target, so the proof does not depend on the bound
// (predicate-lbe once never answered; predicate-abel and impact said UNKNOWN).
extern void reach_error(void);
void walk(int depth) {
  if (depth < 5) return;
  walk(depth - 1);
  reach_error();
}
int main(void) {
  walk(4);
  return 0;
}
