// expect: 2:1: error: macro 'CAT' uses '#' or '##', which is not supported
#define CAT(a, b) a ## b
int main(void) { return 0; }
