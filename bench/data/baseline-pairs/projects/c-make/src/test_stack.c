#include <stdio.h>
#include "stack.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

int main(void) {
  stack s;
  int v = 0;
  stack_init(&s);
  CHECK(stack_pop(&s, &v) == -1);
  CHECK(stack_push(&s, 7) == 0);
  CHECK(stack_pop(&s, &v) == 0 && v == 7);
  printf("%d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
