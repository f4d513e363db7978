#ifndef LANTERN_CSENTENCEBREAK_H
#define LANTERN_CSENTENCEBREAK_H

/* ICU's sentence break iterator (UAX #29 with the CLDR's English abbreviations suppressed, the
   locale "en@ss=standard"), behind plain C types. ICU's own headers stay in the .c file: Swift
   modules that saw them beside Foundation's _FoundationICU would fail to build ("'UErrorCode'
   has different definitions in different modules"). */

#include <stdint.h>

/* Writes to ends[0..<n] the UTF-16 offsets in text[0..<length] at which a sentence ends, the
   last one `length`, and returns n (at most `capacity`, which length + 1 always suffices for);
   -1 when ICU could not open its iterator. Safe to call from several threads at once: each
   thread keeps its own iterator. */
int32_t lantern_sentence_ends(const uint16_t *text, int32_t length, int32_t *ends, int32_t capacity);

#endif
