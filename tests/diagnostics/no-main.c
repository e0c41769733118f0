// expect: 1:1: error: the program has no function 'main'
int f(void) { return 0; }
