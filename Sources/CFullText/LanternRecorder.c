/* The "lantern" FTS5 tokenizer, the word recorder behind it, and per-word shortlists
   (see CFullText.h for what a shortlist is and why it holds the top N of any one-word query). */
#include "CFullText.h"
#include <stdlib.h>
#include <string.h>

/* ---- growable arrays and hashing ------------------------------------------------------------ */

static int grow(void **array, int64_t *capacity, int64_t needed, size_t size) {
    if (needed <= *capacity) return SQLITE_OK;
    int64_t next = *capacity ? *capacity : 64;
    while (next < needed) next *= 2;
    void *bigger = realloc(*array, (size_t)next * size);
    if (!bigger) return SQLITE_NOMEM;
    *array = bigger;
    *capacity = next;
    return SQLITE_OK;
}

/* A word's hash: eight bytes at a time, one multiply each (words are short), then mixed. */
static uint32_t hashBytes(const char *bytes, int length) {
    uint64_t hash = 0x9E3779B97F4A7C15ull ^ (uint64_t)length;
    for (; length >= 8; bytes += 8, length -= 8) {
        uint64_t chunk;
        memcpy(&chunk, bytes, 8);
        hash = (hash ^ chunk) * 0xBF58476D1CE4E5B9ull;
        hash ^= hash >> 31;
    }
    if (length > 0) {
        uint64_t chunk = 0;
        for (int i = 0; i < length; i++) chunk |= (uint64_t)(uint8_t)bytes[i] << (8 * i);
        hash = (hash ^ chunk) * 0xBF58476D1CE4E5B9ull;
        hash ^= hash >> 31;
    }
    hash *= 0x94D049BB133111EBull;
    return (uint32_t)(hash ^ (hash >> 32));
}



/* ---- shortlists ------------------------------------------------------------------------------ */

/* A member: an item, the word's weighted count in it, its length, and how many other members
   dominate it. Members are kept ordered by count (descending), then length, then rowid. */
typedef struct { int64_t rowid; uint32_t count, length, dominators; } Member;

/* The blob: depth (u32), then per member rowid (i64), count, length, dominators (u32 each),
   little-endian as the machine stores them. */
enum { kHeaderSize = 4, kMemberSize = 20, kGateCounts = 16 };

typedef struct { uint32_t count, length; } Level;

typedef struct {
    uint32_t depth;
    Member *members; int64_t count, capacity;
    /* Rejection thresholds: for the k-th count level (descending), the depth-th shortest length
       among members with at least that count (UINT32_MAX when fewer). Rebuilt when stale. */
    Level *levels; int64_t levelCount, levelCapacity;
    /* The same threshold for the small counts most items have, looked up without a search. */
    uint32_t gate[kGateCounts];
    int stale;
} Shortlist;

static void shortlistFree(Shortlist *list) {
    free(list->members);
    free(list->levels);
}

static int dominates(const Member *a, const Member *b) {
    if (a->count < b->count || a->length > b->length) return 0;
    if (a->count > b->count || a->length < b->length) return 1;
    return a->rowid < b->rowid;
}

static int precedes(const Member *a, const Member *b) {
    if (a->count != b->count) return a->count > b->count;
    if (a->length != b->length) return a->length < b->length;
    return a->rowid < b->rowid;
}

static int rebuildLevels(Shortlist *list) {
    if (grow((void **)&list->levels, &list->levelCapacity, list->count + 1, sizeof(Level)) != SQLITE_OK) return SQLITE_NOMEM;
    /* `shortest` keeps the depth shortest lengths seen so far, ascending. */
    uint32_t shortest[LANTERN_SHORTLIST_DEPTH + 1];
    int64_t kept = 0;
    list->levelCount = 0;
    for (int64_t i = 0; i < list->count; i++) {
        uint32_t length = list->members[i].length;
        if (kept < list->depth || length < shortest[kept - 1]) {
            int64_t at = kept < list->depth ? kept++ : kept - 1;
            while (at > 0 && shortest[at - 1] > length) { shortest[at] = shortest[at - 1]; at--; }
            shortest[at] = length;
        }
        if (i + 1 == list->count || list->members[i + 1].count != list->members[i].count) {
            list->levels[list->levelCount++] = (Level){list->members[i].count, kept == list->depth ? shortest[kept - 1] : UINT32_MAX};
        }
    }
    for (uint32_t count = 1, level = (uint32_t)list->levelCount; count <= kGateCounts; count++) {
        while (level > 0 && list->levels[level - 1].count < count) level--;
        list->gate[count - 1] = level > 0 ? list->levels[level - 1].length : UINT32_MAX;
    }
    list->stale = 0;
    return SQLITE_OK;
}

/* The depth-th shortest length among members whose count is at least `count`. */
static uint32_t threshold(const Shortlist *list, uint32_t count) {
    if (count >= 1 && count <= kGateCounts) return list->gate[count - 1];
    int64_t low = 0, high = list->levelCount;
    while (low < high) {
        int64_t middle = (low + high) / 2;
        if (list->levels[middle].count >= count) low = middle + 1; else high = middle;
    }
    return low > 0 ? list->levels[low - 1].length : UINT32_MAX;
}

/* Adds an item newer (higher rowid) than every member unless `depth` members dominate it; then
   drops the members it pushes to `depth` dominators. */
static int shortlistInsert(Shortlist *list, int64_t rowid, uint32_t count, uint32_t length) {
    if (list->depth == 0) return SQLITE_OK;
    if (list->stale && rebuildLevels(list) != SQLITE_OK) return SQLITE_NOMEM;
    if (threshold(list, count) <= length) return SQLITE_OK;
    Member member = {rowid, count, length, 0};
    int64_t position = list->count;
    for (int64_t i = 0; i < list->count; i++) {
        if (dominates(&list->members[i], &member)) member.dominators++;
        if (position == list->count && precedes(&member, &list->members[i])) position = i;
    }
    if (grow((void **)&list->members, &list->capacity, list->count + 1, sizeof(Member)) != SQLITE_OK) return SQLITE_NOMEM;
    memmove(&list->members[position + 1], &list->members[position], (size_t)(list->count - position) * sizeof(Member));
    list->members[position] = member;
    list->count++;
    int64_t kept = 0;
    for (int64_t i = 0; i < list->count; i++) {
        Member *other = &list->members[i];
        if (i != position && dominates(&member, other)) other->dominators++;
        if (other->dominators < list->depth) list->members[kept++] = *other;
    }
    list->count = kept;
    list->stale = 1;
    return SQLITE_OK;
}

/* Removes a deleted item: when it was a member, the members it dominated lose a dominator and
   the depth drops by one (an item outside the shortlist cannot let another one in). */
static void shortlistRemove(Shortlist *list, int64_t rowid) {
    int64_t found = -1;
    for (int64_t i = 0; i < list->count && found < 0; i++) if (list->members[i].rowid == rowid) found = i;
    if (found < 0) return;
    Member removed = list->members[found];
    memmove(&list->members[found], &list->members[found + 1], (size_t)(list->count - found - 1) * sizeof(Member));
    list->count--;
    for (int64_t i = 0; i < list->count; i++) if (dominates(&removed, &list->members[i])) list->members[i].dominators--;
    if (list->depth > 0) list->depth--;
    list->stale = 1;
}

static int shortlistDecode(Shortlist *list, const unsigned char *data, int size) {
    memset(list, 0, sizeof *list);
    list->stale = 1;
    if (!data || size == 0) { list->depth = LANTERN_SHORTLIST_DEPTH; return SQLITE_OK; }
    if (size < kHeaderSize || (size - kHeaderSize) % kMemberSize) return SQLITE_CORRUPT;
    memcpy(&list->depth, data, 4);
    if (list->depth > LANTERN_SHORTLIST_DEPTH) return SQLITE_CORRUPT;
    int64_t count = (size - kHeaderSize) / kMemberSize;
    if (grow((void **)&list->members, &list->capacity, count, sizeof(Member)) != SQLITE_OK) return SQLITE_NOMEM;
    for (int64_t i = 0; i < count; i++) {
        const unsigned char *at = data + kHeaderSize + i * kMemberSize;
        Member *member = &list->members[i];
        memcpy(&member->rowid, at, 8);
        memcpy(&member->count, at + 8, 4);
        memcpy(&member->length, at + 12, 4);
        memcpy(&member->dominators, at + 16, 4);
    }
    list->count = count;
    return SQLITE_OK;
}

static int shortlistEncode(const Shortlist *list, unsigned char **output, int64_t *capacity, int *size) {
    int64_t bytes = kHeaderSize + list->count * kMemberSize;
    if (bytes > 0x7fffffff || grow((void **)output, capacity, bytes, 1) != SQLITE_OK) return SQLITE_NOMEM;
    memcpy(*output, &list->depth, 4);
    for (int64_t i = 0; i < list->count; i++) {
        unsigned char *at = *output + kHeaderSize + i * kMemberSize;
        const Member *member = &list->members[i];
        memcpy(at, &member->rowid, 8);
        memcpy(at + 8, &member->count, 4);
        memcpy(at + 12, &member->length, 4);
        memcpy(at + 16, &member->dominators, 4);
    }
    *size = (int)bytes;
    return SQLITE_OK;
}

/* ---- the recorder ---------------------------------------------------------------------------- */

/* A word the recorder has met since it was last cleared, and its counts in the document being
   tokenized (valid while `document` is that document's number): what every token touches, in
   one small entry, so that a batch's vocabulary stays in the processor's cache. The word is in
   the recorder's `bytes`; its first bytes also in the entry, which is all most comparisons read. */
enum { kInlineBytes = 8, kHotGates = 3 };
typedef struct {
    int64_t document;
    int64_t itemCount;
    uint32_t counts[LANTERN_MAX_COLUMNS];
    /* The shortlist's first thresholds (Shortlist.gate), so that most of a document's words are
       turned away without reading their shortlists. */
    uint32_t gate[kHotGates];
    uint32_t offset, length;
    uint8_t loaded, changed;
    char prefix[kInlineBytes];
} RecordedWord;

/* A token waiting to be counted, and a document whose tokens wait (`firstToken` up to the next
   document's). */
typedef struct { uint32_t hash, length, offset, column; } BufferedToken;
typedef struct { int64_t rowid, firstToken; int32_t sign; uint32_t length; } BufferedDocument;

/* Tokens buffered before their documents are counted: about 5 MiB. */
enum { kTokenChunk = 1 << 18 };

struct LanternRecorder {
    int columnCount;
    uint32_t weights[LANTERN_MAX_COLUMNS];
    sqlite3 *db;
    sqlite3_stmt *findShortlist;
    /* The document being tokenized, and the documents tokenized but not yet counted. */
    int active, column, sign;
    int64_t rowid;
    uint32_t length;
    BufferedDocument *documents; int64_t documentCount, documentsCapacity;
    BufferedToken *tokens; int64_t tokenCount, tokensCapacity;
    char *tokenBytes; int64_t tokenBytesUsed, tokenBytesCapacity;
    /* While counting: the number of the document counted, and its words. */
    int64_t document;
    int64_t *documentWords; int64_t documentWordCount, documentCapacity;
    /* The words met since the last clear, found through `slots`: open addressing, a power of two
       of them, each the word's hash (high half) and its index plus one (low half; 0 is empty),
       so that a probe reads a word's entry only when the hashes match. */
    uint64_t *slots; int64_t slotCount;
    RecordedWord *words; int64_t wordCount, wordsCapacity;
    char *bytes; int64_t bytesUsed, bytesCapacity;
    Shortlist *shortlists; int64_t shortlistsCapacity;
    /* Scratch for lantern_recorder_save's result. */
    unsigned char *output; int64_t outputCapacity;
    int failed;
};

LanternRecorder *lantern_recorder_create(int columnCount, const uint32_t *weights) {
    if (columnCount < 1 || columnCount > LANTERN_MAX_COLUMNS) return NULL;
    LanternRecorder *recorder = calloc(1, sizeof *recorder);
    if (!recorder) return NULL;
    recorder->columnCount = columnCount;
    memcpy(recorder->weights, weights, sizeof(uint32_t) * (size_t)columnCount);
    return recorder;
}

void lantern_recorder_clear(LanternRecorder *recorder) {
    for (int64_t i = 0; i < recorder->wordCount; i++) if (recorder->words[i].loaded) shortlistFree(&recorder->shortlists[i]);
    if (recorder->wordCount) memset(recorder->slots, 0, (size_t)recorder->slotCount * sizeof(uint64_t));
    recorder->wordCount = 0;
    recorder->bytesUsed = 0;
    recorder->documentCount = 0;
    recorder->tokenCount = 0;
    recorder->tokenBytesUsed = 0;
    recorder->active = 0;
    recorder->failed = 0;
}

void lantern_recorder_free(LanternRecorder *recorder) {
    if (!recorder) return;
    lantern_recorder_clear(recorder);
    sqlite3_finalize(recorder->findShortlist);
    free(recorder->slots);
    free(recorder->bytes);
    free(recorder->documentWords);
    free(recorder->documents);
    free(recorder->tokens);
    free(recorder->tokenBytes);
    free(recorder->words);
    free(recorder->shortlists);
    free(recorder->output);
    free(recorder);
}

void lantern_recorder_begin_document(LanternRecorder *recorder, int64_t rowid, int sign) {
    recorder->active = 1;
    recorder->column = 0;
    recorder->sign = sign;
    recorder->rowid = rowid;
    recorder->length = 0;
    if (grow((void **)&recorder->documents, &recorder->documentsCapacity, recorder->documentCount + 1, sizeof(BufferedDocument)) != SQLITE_OK) {
        recorder->failed = 1;
        return;
    }
    recorder->documents[recorder->documentCount] = (BufferedDocument){rowid, recorder->tokenCount, sign, 0};
}

static int sameWord(const LanternRecorder *recorder, const RecordedWord *word, const char *bytes, int length) {
    if (word->length != (uint32_t)length) return 0;
    int inline_ = length < kInlineBytes ? length : kInlineBytes;
    for (int i = 0; i < inline_; i++) if (word->prefix[i] != bytes[i]) return 0;
    return length <= kInlineBytes
        || memcmp(recorder->bytes + word->offset + kInlineBytes, bytes + kInlineBytes, (size_t)(length - kInlineBytes)) == 0;
}

/* The index of the word `bytes` (whose hash is `hash`), added (unloaded, in no document) when
   new; -1 when out of memory. */
static int64_t findWord(LanternRecorder *recorder, const char *bytes, int length, uint32_t hash) {
    if ((recorder->wordCount + 1) * 2 > recorder->slotCount) {
        int64_t slotCount = recorder->slotCount ? recorder->slotCount * 2 : 4096;
        uint64_t *slots = calloc((size_t)slotCount, sizeof(uint64_t));
        if (!slots) return -1;
        for (int64_t i = 0; i < recorder->slotCount; i++) {
            if (!recorder->slots[i]) continue;
            int64_t slot = (recorder->slots[i] >> 32) & (slotCount - 1);
            while (slots[slot]) slot = (slot + 1) & (slotCount - 1);
            slots[slot] = recorder->slots[i];
        }
        free(recorder->slots);
        recorder->slots = slots;
        recorder->slotCount = slotCount;
    }
    int64_t slot = hash & (recorder->slotCount - 1);
    for (uint64_t entry; (entry = recorder->slots[slot]); slot = (slot + 1) & (recorder->slotCount - 1)) {
        if ((uint32_t)(entry >> 32) != hash) continue;
        int64_t index = (int64_t)(uint32_t)entry - 1;
        if (sameWord(recorder, &recorder->words[index], bytes, length)) return index;
    }
    int64_t index = recorder->wordCount;
    if (index >= UINT32_MAX - 1 || recorder->bytesUsed + length >= UINT32_MAX
        || grow((void **)&recorder->words, &recorder->wordsCapacity, index + 1, sizeof(RecordedWord)) != SQLITE_OK
        || grow((void **)&recorder->shortlists, &recorder->shortlistsCapacity, index + 1, sizeof(Shortlist)) != SQLITE_OK
        || grow((void **)&recorder->bytes, &recorder->bytesCapacity, recorder->bytesUsed + length, 1) != SQLITE_OK) return -1;
    RecordedWord *word = &recorder->words[index];
    memset(word, 0, sizeof *word);
    word->length = length;
    memcpy(word->prefix, bytes, (size_t)(length < kInlineBytes ? length : kInlineBytes));
    word->offset = (uint32_t)recorder->bytesUsed;
    memcpy(recorder->bytes + recorder->bytesUsed, bytes, (size_t)length);
    recorder->bytesUsed += length;
    recorder->slots[slot] = ((uint64_t)hash << 32) | (uint64_t)(index + 1);
    recorder->wordCount++;
    return index;
}

/* One token FTS5 stores: counted toward the length as FTS5 counts it (a colocated token only
   when it is the first of its column, which the tokenizer below never produces), and buffered. */
static void recordToken(LanternRecorder *recorder, int flags, const char *token, int length, int columnLength) {
    if (!(flags & FTS5_TOKEN_COLOCATED) || columnLength == 0) recorder->length++;
    if (recorder->tokenBytesUsed + length >= UINT32_MAX
        || grow((void **)&recorder->tokens, &recorder->tokensCapacity, recorder->tokenCount + 1, sizeof(BufferedToken)) != SQLITE_OK
        || grow((void **)&recorder->tokenBytes, &recorder->tokenBytesCapacity, recorder->tokenBytesUsed + length, 1) != SQLITE_OK) {
        recorder->failed = 1;
        return;
    }
    memcpy(recorder->tokenBytes + recorder->tokenBytesUsed, token, (size_t)length);
    recorder->tokens[recorder->tokenCount++] = (BufferedToken){
        hashBytes(token, length), (uint32_t)length, (uint32_t)recorder->tokenBytesUsed, (uint32_t)recorder->column};
    recorder->tokenBytesUsed += length;
}

/* Copies a shortlist's first thresholds into its word's entry, after it changed. */
static int refreshGate(RecordedWord *word, Shortlist *list) {
    if (list->stale && list->depth > 0 && rebuildLevels(list) != SQLITE_OK) return SQLITE_NOMEM;
    for (int i = 0; i < kHotGates; i++) word->gate[i] = list->depth > 0 ? list->gate[i] : 0;
    return SQLITE_OK;
}

/* Reads a newly met word's row of term_shortlists (none: no item holds it yet). */
static int loadWord(LanternRecorder *recorder, RecordedWord *word, Shortlist *list) {
    word->itemCount = 0;
    if (!recorder->findShortlist) {
        int rc = sqlite3_prepare_v3(recorder->db, "SELECT count, data FROM term_shortlists WHERE term = ?", -1,
                                    SQLITE_PREPARE_PERSISTENT, &recorder->findShortlist, NULL);
        if (rc != SQLITE_OK) return rc;
    }
    sqlite3_stmt *find = recorder->findShortlist;
    sqlite3_bind_text(find, 1, recorder->bytes + word->offset, (int)word->length, SQLITE_STATIC);
    int rc = sqlite3_step(find);
    if (rc == SQLITE_ROW) {
        word->itemCount = sqlite3_column_int64(find, 0);
        rc = shortlistDecode(list, sqlite3_column_blob(find, 1), sqlite3_column_bytes(find, 1));
        if (rc == SQLITE_CORRUPT) {
            /* A damaged row guarantees nothing (depth 0), so the next save rebuilds it from FTS5. */
            shortlistFree(list);
            memset(list, 0, sizeof *list);
            list->stale = 1;
            rc = SQLITE_OK;
        }
    } else if (rc == SQLITE_DONE) {
        rc = shortlistDecode(list, NULL, 0);
    }
    sqlite3_reset(find);
    if (rc == SQLITE_OK) rc = refreshGate(word, list);
    word->loaded = rc == SQLITE_OK;
    return rc;
}

/* Counts one buffered document's words, then changes each word's item count and shortlist. An
   insert whose count has a hot gate that turns it away costs no more than reading the entry. */
static int countDocument(LanternRecorder *recorder, const BufferedDocument *document, int64_t endToken) {
    recorder->document++;
    recorder->documentWordCount = 0;
    for (int64_t t = document->firstToken; t < endToken; t++) {
        const BufferedToken *token = &recorder->tokens[t];
        int64_t index = findWord(recorder, recorder->tokenBytes + token->offset, (int)token->length, token->hash);
        if (index < 0) return SQLITE_NOMEM;
        RecordedWord *word = &recorder->words[index];
        if (word->document != recorder->document) {
            if (grow((void **)&recorder->documentWords, &recorder->documentCapacity, recorder->documentWordCount + 1, sizeof(int64_t)) != SQLITE_OK) {
                return SQLITE_NOMEM;
            }
            recorder->documentWords[recorder->documentWordCount++] = index;
            word->document = recorder->document;
            memset(word->counts, 0, sizeof word->counts);
        }
        word->counts[token->column]++;
    }
    for (int64_t i = 0; i < recorder->documentWordCount; i++) {
        int64_t index = recorder->documentWords[i];
        RecordedWord *word = &recorder->words[index];
        Shortlist *list = &recorder->shortlists[index];
        uint32_t count = 0;
        for (int c = 0; c < recorder->columnCount; c++) count += word->counts[c] * recorder->weights[c];
        int rc = word->loaded ? SQLITE_OK : loadWord(recorder, word, list);
        if (rc != SQLITE_OK) return rc;
        word->changed = 1;
        word->itemCount += document->sign;
        if (document->sign > 0) {
            if (count >= 1 && count <= kHotGates && word->gate[count - 1] <= document->length) continue;
            int64_t members = list->count;
            rc = shortlistInsert(list, document->rowid, count, document->length);
            if (rc == SQLITE_OK && (list->count != members || list->stale)) rc = refreshGate(word, list);
        } else {
            shortlistRemove(list, document->rowid);
            rc = refreshGate(word, list);
        }
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

/* Counts every buffered document, in order. Done in chunks rather than per document, so that
   the words' entries stay in the processor's cache instead of being pushed out by FTS5's own
   work between one document and the next (which made counting cost about twice as much). */
int lantern_recorder_finish(LanternRecorder *recorder) {
    for (int64_t d = 0; d < recorder->documentCount && !recorder->failed; d++) {
        int64_t endToken = d + 1 < recorder->documentCount ? recorder->documents[d + 1].firstToken : recorder->tokenCount;
        if (countDocument(recorder, &recorder->documents[d], endToken) != SQLITE_OK) recorder->failed = 1;
    }
    recorder->documentCount = 0;
    recorder->tokenCount = 0;
    recorder->tokenBytesUsed = 0;
    return recorder->failed ? SQLITE_ERROR : SQLITE_OK;
}

int lantern_recorder_end_document(LanternRecorder *recorder) {
    recorder->active = 0;
    if (recorder->column != recorder->columnCount || recorder->failed) { recorder->failed = 1; return -1; }
    recorder->documents[recorder->documentCount++].length = recorder->length;
    if (recorder->tokenCount >= kTokenChunk && lantern_recorder_finish(recorder) != SQLITE_OK) return -1;
    return 0;
}

int64_t lantern_recorder_word_count(const LanternRecorder *recorder) { return recorder->wordCount; }

const char *lantern_recorder_word(const LanternRecorder *recorder, int64_t index, int *length) {
    const RecordedWord *word = &recorder->words[index];
    *length = word->length;
    return recorder->bytes + word->offset;
}

int lantern_recorder_word_changed(const LanternRecorder *recorder, int64_t index) { return recorder->words[index].changed; }

int lantern_recorder_save(LanternRecorder *recorder, int64_t index, LanternShortlistUpdate *update) {
    if (recorder->failed) return SQLITE_ERROR;
    RecordedWord *word = &recorder->words[index];
    const Shortlist *list = &recorder->shortlists[index];
    int rc = shortlistEncode(list, &recorder->output, &recorder->outputCapacity, &update->size);
    update->itemCount = word->itemCount;
    update->data = recorder->output;
    update->needsRebuild = list->depth < LANTERN_SHORTLIST_MIN_DEPTH && list->count < word->itemCount;
    word->changed = 0;
    return rc;
}

int lantern_recorder_replace(LanternRecorder *recorder, int64_t index, const void *data, int size, int64_t itemCount) {
    Shortlist *list = &recorder->shortlists[index];
    recorder->words[index].itemCount = itemCount;
    shortlistFree(list);
    int rc = shortlistDecode(list, data, size);
    return rc == SQLITE_OK ? refreshGate(&recorder->words[index], list) : rc;
}

/* lantern_shortlist(rowid, shape): a word's shortlist built from its rows in rowid order. */
static void shortlistStep(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    Shortlist **slot = sqlite3_aggregate_context(context, sizeof(Shortlist *));
    if (!slot) { sqlite3_result_error_nomem(context); return; }
    if (!*slot) {
        *slot = calloc(1, sizeof(Shortlist));
        if (!*slot) { sqlite3_result_error_nomem(context); return; }
        (*slot)->depth = LANTERN_SHORTLIST_DEPTH;
        (*slot)->stale = 1;
    }
    sqlite3_int64 shape = sqlite3_value_int64(argv[1]);
    if (shortlistInsert(*slot, sqlite3_value_int64(argv[0]), (uint32_t)(shape >> 32), (uint32_t)shape) != SQLITE_OK) {
        sqlite3_result_error_nomem(context);
    }
}

static void shortlistFinal(sqlite3_context *context) {
    Shortlist **slot = sqlite3_aggregate_context(context, 0);
    Shortlist empty = {.depth = LANTERN_SHORTLIST_DEPTH};
    Shortlist *list = slot && *slot ? *slot : &empty;
    unsigned char *output = NULL;
    int64_t capacity = 0;
    int size = 0;
    if (shortlistEncode(list, &output, &capacity, &size) == SQLITE_OK) sqlite3_result_blob(context, output, size, free);
    else { free(output); sqlite3_result_error_nomem(context); }
    if (list != &empty) { shortlistFree(list); free(list); }
}

/* ---- FTS5: tokenizer and functions ----------------------------------------------------------- */

typedef struct { fts5_tokenizer inner; Fts5Tokenizer *instance; LanternRecorder *recorder; } Tokenizer;
typedef struct { void *context; int (*token)(void *, int, const char *, int, int, int); LanternRecorder *recorder; int columnLength; } Forwarding;
typedef struct { fts5_api *api; LanternRecorder *recorder; } Registration;

static int forwardToken(void *context, int flags, const char *token, int length, int start, int end) {
    Forwarding *forwarding = context;
    recordToken(forwarding->recorder, flags, token, length, forwarding->columnLength);
    if (!(flags & FTS5_TOKEN_COLOCATED) || forwarding->columnLength == 0) forwarding->columnLength++;
    return forwarding->token(forwarding->context, flags, token, length, start, end);
}

static int tokenizerCreate(void *userData, const char **arguments, int argumentCount, Fts5Tokenizer **output) {
    (void)arguments; (void)argumentCount;
    Registration *registration = userData;
    Tokenizer *tokenizer = calloc(1, sizeof *tokenizer);
    if (!tokenizer) return SQLITE_NOMEM;
    void *innerData;
    int rc = registration->api->xFindTokenizer(registration->api, "porter", &innerData, &tokenizer->inner);
    const char *innerArguments[] = {"unicode61", "remove_diacritics", "2"};
    if (rc == SQLITE_OK) rc = tokenizer->inner.xCreate(innerData, innerArguments, 3, &tokenizer->instance);
    if (rc != SQLITE_OK) { free(tokenizer); return rc; }
    tokenizer->recorder = registration->recorder;
    *output = (Fts5Tokenizer *)tokenizer;
    return SQLITE_OK;
}

static void tokenizerDelete(Fts5Tokenizer *instance) {
    Tokenizer *tokenizer = (Tokenizer *)instance;
    tokenizer->inner.xDelete(tokenizer->instance);
    free(tokenizer);
}

static int tokenizerTokenize(Fts5Tokenizer *instance, void *context, int flags, const char *text, int length,
                             int (*token)(void *, int, const char *, int, int, int)) {
    Tokenizer *tokenizer = (Tokenizer *)instance;
    LanternRecorder *recorder = tokenizer->recorder;
    if (!recorder || !recorder->active || !(flags & FTS5_TOKENIZE_DOCUMENT)) {
        return tokenizer->inner.xTokenize(tokenizer->instance, context, flags, text, length, token);
    }
    if (recorder->column >= recorder->columnCount) { recorder->column++; return SQLITE_ERROR; }
    Forwarding forwarding = {context, token, recorder, 0};
    int rc = tokenizer->inner.xTokenize(tokenizer->instance, &forwarding, flags, text, length, forwardToken);
    recorder->column++;
    return rc;
}

/* lantern_term_shape(fts): for a one-word MATCH, the row's weighted count of the word (weights
   from the function's registration) times 2^32 plus the row's length in tokens. */
static void termShape(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc; (void)argv;
    const LanternRecorder *weights = api->xUserData(fts);
    int instances = 0, rc = api->xInstCount(fts, &instances);
    uint64_t count = 0;
    for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
        int phrase, column, offset;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK && column < weights->columnCount) count += weights->weights[column];
    }
    int length = 0;
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &length);
    if (rc != SQLITE_OK) { sqlite3_result_error_code(context, rc); return; }
    sqlite3_result_int64(context, (sqlite3_int64)((count << 32) | (uint32_t)length));
}

/* lantern_totals(fts): the table's row count and total length in tokens (what BM25 averages
   over), as a 16-byte blob of two native int64 values. */
static void totals(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc; (void)argv;
    sqlite3_int64 values[2] = {0, 0};
    int rc = api->xRowCount(fts, &values[0]);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &values[1]);
    if (rc != SQLITE_OK) { sqlite3_result_error_code(context, rc); return; }
    sqlite3_result_blob(context, values, sizeof values, SQLITE_TRANSIENT);
}

/* lantern_match_score(fts): how well a row matches without BM25's collection statistics, to
   rank the rows of one small range (the passages of one item): the number of distinct phrases it
   holds times 2^20, plus its instances, each counted twice in the first column (a heading). BM25
   would read each phrase's whole list of rows for its document count on every call. */
static void matchScore(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc; (void)argv;
    int phrases = api->xPhraseCount(fts);
    int instances = 0, rc = api->xInstCount(fts, &instances);
    sqlite3_int64 seen = 0, weighted = 0;
    for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
        int phrase, column, offset;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc != SQLITE_OK) break;
        if (phrase < 62) seen |= (sqlite3_int64)1 << phrase;
        weighted += column == 0 ? 2 : 1;
    }
    if (rc != SQLITE_OK) { sqlite3_result_error_code(context, rc); return; }
    int distinct = 0;
    for (int phrase = 0; phrase < phrases && phrase < 62; phrase++) distinct += (int)((seen >> phrase) & 1);
    sqlite3_result_int64(context, ((sqlite3_int64)distinct << 20) + weighted);
}

static fts5_api *ftsApi(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

int lantern_fulltext_register(sqlite3 *db, LanternRecorder *recorder) {
    fts5_api *api = ftsApi(db);
    if (!api) return SQLITE_ERROR;
    Registration *registration = calloc(1, sizeof *registration);
    if (!registration) return SQLITE_NOMEM;
    registration->api = api;
    registration->recorder = recorder;
    fts5_tokenizer tokenizer = {tokenizerCreate, tokenizerDelete, tokenizerTokenize};
    if (recorder) recorder->db = db;
    int rc = api->xCreateTokenizer(api, "lantern", registration, &tokenizer, free);
    if (rc != SQLITE_OK) { free(registration); return rc; }
    if (recorder) rc = api->xCreateFunction(api, "lantern_term_shape", recorder, termShape, NULL);
    if (rc == SQLITE_OK) rc = api->xCreateFunction(api, "lantern_totals", NULL, totals, NULL);
    if (rc == SQLITE_OK) rc = api->xCreateFunction(api, "lantern_match_score", NULL, matchScore, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function_v2(db, "lantern_shortlist", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL,
                                                        NULL, shortlistStep, shortlistFinal, NULL);
    return rc;
}

/* ---- query words ----------------------------------------------------------------------------- */

typedef struct { char *output; int capacity, length, tokens; } SingleToken;

static int keepToken(void *context, int flags, const char *token, int length, int start, int end) {
    (void)start; (void)end;
    SingleToken *single = context;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    if (++single->tokens == 1 && length <= single->capacity) {
        memcpy(single->output, token, (size_t)length);
        single->length = length;
    }
    return SQLITE_OK;
}

int lantern_single_token(sqlite3 *db, const char *text, int length, char *output, int capacity) {
    fts5_api *api = ftsApi(db);
    void *userData;
    fts5_tokenizer tokenizer;
    if (!api || api->xFindTokenizer(api, "lantern", &userData, &tokenizer) != SQLITE_OK) return -1;
    Fts5Tokenizer *instance;
    if (tokenizer.xCreate(userData, NULL, 0, &instance) != SQLITE_OK) return -1;
    SingleToken single = {output, capacity, -1, 0};
    int rc = tokenizer.xTokenize(instance, &single, FTS5_TOKENIZE_QUERY, text, length, keepToken);
    tokenizer.xDelete(instance);
    return rc == SQLITE_OK && single.tokens == 1 ? single.length : -1;
}

struct LanternTokenizer { fts5_tokenizer tokenizer; Fts5Tokenizer *instance; };

LanternTokenizer *lantern_tokenizer_open(sqlite3 *db) {
    fts5_api *api = ftsApi(db);
    void *userData;
    LanternTokenizer *opened = calloc(1, sizeof *opened);
    if (!opened) return NULL;
    if (!api || api->xFindTokenizer(api, "lantern", &userData, &opened->tokenizer) != SQLITE_OK
        || opened->tokenizer.xCreate(userData, NULL, 0, &opened->instance) != SQLITE_OK) {
        free(opened);
        return NULL;
    }
    return opened;
}

void lantern_tokenizer_close(LanternTokenizer *tokenizer) {
    if (!tokenizer) return;
    tokenizer->tokenizer.xDelete(tokenizer->instance);
    free(tokenizer);
}

typedef struct { lantern_token_visitor visit; void *context; } Visiting;

static int visitToken(void *context, int flags, const char *token, int length, int start, int end) {
    Visiting *visiting = context;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    return visiting->visit(visiting->context, token, length, start, end);
}

int lantern_tokenizer_run(LanternTokenizer *tokenizer, const char *text, int length, lantern_token_visitor visit, void *context) {
    Visiting visiting = {visit, context};
    return tokenizer->tokenizer.xTokenize(tokenizer->instance, &visiting, FTS5_TOKENIZE_QUERY, text, length, visitToken);
}
