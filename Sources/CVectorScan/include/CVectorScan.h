#ifndef LANTERN_CVECTORSCAN_H
#define LANTERN_CVECTORSCAN_H

/* The inner loop of a search by meaning: a query's dot product with every stored int8 vector.
   In C because Swift compiles for the baseline x86-64 (SSE2), where its SIMD types multiply
   32-bit integers slowly, and has no way to build one function for a newer CPU: here the AVX2
   version (16-bit multiplies summed in pairs, `vpmaddwd`) is chosen at run time where the CPU
   has it, about 4.7 times faster per row than the Swift loop it replaced on this machine's AMD
   EPYC. The results are exact integers, the same on every path. */

#include <stddef.h>
#include <stdint.h>

/* dots[r] = sum over c of query[c] * rows[r * dimension + c], for r in [0, count). The caller
   keeps each sum within an int32 (|query| * 127 * dimension < 2^31). */
void lantern_int8_dots(const int16_t *query, const int8_t *rows, size_t dimension, size_t count, int32_t *dots);

/* The same without vector instructions (what a CPU without AVX2 runs), for the tests to hold
   the fast path to. */
void lantern_int8_dots_portable(const int16_t *query, const int8_t *rows, size_t dimension, size_t count, int32_t *dots);

#endif
