// verdict: true
#include <stdlib.h>
extern void reach_error(void);
struct node { int v; struct node *next; };
int main(void) {
  struct node *a = malloc(sizeof(struct node));
  struct node *b = malloc(sizeof(struct node));
  a->v = 1; a->next = b;
  b->v = 2; b->next = NULL;
  int s = 0;
  for (struct node *p = a; p != NULL; p = p->next) s += p->v;
  if (s != 3) reach_error();
  free(b);
  free(a);
  return 0;
}
