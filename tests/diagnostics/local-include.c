// expect: 2:1: error: cannot include "mine.h": only standard headers (<...>) are built in
#include "mine.h"
int main(void) { return 0; }
