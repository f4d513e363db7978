#include "CHeapRelease.h"

#include <malloc.h>

int lantern_release_free_heap(void) {
    return malloc_trim(0);
}
