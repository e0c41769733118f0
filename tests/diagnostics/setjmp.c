// expect: 5:7: error: setjmp and longjmp are not supported (call to 'setjmp')
#include <setjmp.h>
jmp_buf b;
int main(void) {
  if (setjmp(b)) return 1;
  return 0;
}
