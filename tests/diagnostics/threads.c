// expect: 6:3: error: threads and processes are not supported (call to 'pthread_create')
#include <pthread.h>
void *t(void *x) { return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  return 0;
}
