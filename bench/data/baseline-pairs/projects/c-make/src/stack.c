#include "stack.h"

void stack_init(stack *s) { s->top = 0; }

int stack_push(stack *s, int v) {
  if (s->top >= 64) return -1;
  s->items[s->top++] = v;
  return 0;
}

int stack_pop(stack *s, int *out) {
  if (s->top == 0) return -1;
  *out = s->items[--s->top];
  return 0;
}
