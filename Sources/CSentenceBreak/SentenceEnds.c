#include "CSentenceBreak.h"
#include <unicode/ubrk.h>

/* Opening a filtered sentence iterator loads the break rules and the abbreviation list (tens
   of microseconds); text is segmented passage by passage while indexing, so each thread opens
   one and points it at each new text. */
static _Thread_local UBreakIterator *iterator = NULL;

int32_t lantern_sentence_ends(const uint16_t *text, int32_t length, int32_t *ends, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    if (iterator == NULL) {
        iterator = ubrk_open(UBRK_SENTENCE, "en@ss=standard", NULL, 0, &status);
        if (U_FAILURE(status)) { iterator = NULL; return -1; }
    }
    ubrk_setText(iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0;
    ubrk_first(iterator);
    for (int32_t end = ubrk_next(iterator); end != UBRK_DONE && count < capacity; end = ubrk_next(iterator)) {
        ends[count++] = end;
    }
    /* the iterator must not keep a pointer to the caller's buffer past this call */
    ubrk_setText(iterator, NULL, 0, &status);
    return count;
}
