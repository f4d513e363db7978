#ifndef LANTERN_CHEAPRELEASE_H
#define LANTERN_CHEAPRELEASE_H

/* Hands the heap memory this process has freed back to the system (glibc's malloc_trim).
   Memory a program frees stays mapped in the process, in every thread's arena, and is counted
   in its resident size until malloc reuses it; after a large write phase (an index build's
   page cache and buffers) this returns it, so what is loaded next takes its place instead of
   adding to the peak. Returns 1 when memory was returned, 0 when there was none to return. */
int lantern_release_free_heap(void);

#endif
