#include "CVectorScan.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
static void dots_avx2(const int16_t *query, const int8_t *rows, size_t dimension, size_t count, int32_t *dots) {
    for (size_t r = 0; r < count; r++) {
        const int8_t *row = rows + r * dimension;
        __m256i sums = _mm256_setzero_si256();
        size_t c = 0;
        for (; c + 16 <= dimension; c += 16) {
            __m256i stored = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(row + c)));
            __m256i wanted = _mm256_loadu_si256((const __m256i *)(query + c));
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(stored, wanted));
        }
        __m128i half = _mm_add_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
        half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0x4e));
        half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0xb1));
        int32_t dot = _mm_cvtsi128_si32(half);
        for (; c < dimension; c++) dot += (int32_t)query[c] * row[c];
        dots[r] = dot;
    }
}
#endif

void lantern_int8_dots_portable(const int16_t *query, const int8_t *rows, size_t dimension, size_t count, int32_t *dots) {
    for (size_t r = 0; r < count; r++) {
        const int8_t *row = rows + r * dimension;
        int32_t dot = 0;
        for (size_t c = 0; c < dimension; c++) dot += (int32_t)query[c] * row[c];
        dots[r] = dot;
    }
}

void lantern_int8_dots(const int16_t *query, const int8_t *rows, size_t dimension, size_t count, int32_t *dots) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        dots_avx2(query, rows, dimension, count, dots);
        return;
    }
#endif
    lantern_int8_dots_portable(query, rows, dimension, count, dots);
}
