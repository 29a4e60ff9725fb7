#ifndef STACK_H
#define STACK_H
typedef struct { int items[64]; int top; } stack;
void stack_init(stack *s);
int stack_push(stack *s, int v);
int stack_pop(stack *s, int *out);
#endif
