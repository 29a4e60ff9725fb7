#include <stdio.h>
#include "stack.h"

int main(void) {
  for (int row = 0; row < 2000; row++) {
    printf("%6d", row);
    for (int col = 1; col <= 10; col++) printf(" %8d", row * col);
    printf("\n");
  }
  return 0;
}
