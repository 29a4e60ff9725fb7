#include <stdio.h>
#include <stdlib.h>

int main(void) {
    const char *name = getenv("NAME");
    printf("Hello, %s!\n", name && *name ? name : "world");
    return 0;
}
