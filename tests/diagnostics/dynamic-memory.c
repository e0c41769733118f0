// expect: 4:3: error: dynamic memory is not supported (call to 'free')
#include <stdlib.h>
int main(void) {
  free(0);
  return 0;
}
