#ifndef LANTERN_CFULLTEXT_H
#define LANTERN_CFULLTEXT_H

/* The full-text side of an index that SQLite's FTS5 leaves open: a tokenizer that lets the index
   see every document's words as FTS5 indexes them, and per-word shortlists of the items that can
   rank in a top N, so that a one-word query does not have to score every item holding the word.

   A shortlist holds, for one word, every item that fewer than `depth` other items beat under
   every possible collection statistic: an item is beaten ("dominated") by another whose weighted
   count of the word is at least as high and whose length is at most as long (lower rowid breaking
   a tie). BM25 rises with the count and falls with the length whatever the average length and
   the number of items are, so the true top `depth` of the word is always inside its shortlist,
   however the index grows. Deleting a member lowers the depth by one; a shortlist whose depth
   falls too low is rebuilt from FTS5 (`lantern_shortlist` over a MATCH). */

#include <sqlite3.h>
#include <stdint.h>

/* Items a new shortlist guarantees: queries asking for at most this many (limit plus offset)
   rank from the shortlist alone. Each deleted member takes one off; below the minimum, the
   writer rebuilds the shortlist. A deeper shortlist keeps more members and changes more often
   while a batch indexes (24 instead of 16 made indexing 100,000 notes 7% slower). */
#define LANTERN_SHORTLIST_DEPTH 16
#define LANTERN_SHORTLIST_MIN_DEPTH 10
/* At most this many full-text columns; their BM25 weights must be whole numbers. */
#define LANTERN_MAX_COLUMNS 4

/* Sees the words of the documents that FTS5 indexes or deletes between
   lantern_recorder_begin_document and lantern_recorder_end_document, and keeps each word's item
   count and shortlist up to date in memory: read from the table term_shortlists(term, count,
   data) when the word is first met, kept until lantern_recorder_clear. The owner saves the
   changed ones into that table before each transaction or savepoint ends. Single-threaded: one
   recorder per writer connection. */
typedef struct LanternRecorder LanternRecorder;

LanternRecorder *lantern_recorder_create(int columnCount, const uint32_t *weights);
void lantern_recorder_free(LanternRecorder *recorder);

/* Registers, on one connection: the tokenizer "lantern" (porter over unicode61 with
   remove_diacritics 2, feeding `recorder` when it is not NULL); the FTS5 function
   lantern_totals(fts) (the table's row count and total length, BM25's collection statistics, as a
   blob of two native int64); the FTS5 function lantern_match_score(fts) (distinct phrases a row
   holds times 2^20 plus its instances, a heading's counted twice: a ranking inside one item's
   passages that needs no collection statistics); and, with a recorder, the FTS5 function lantern_term_shape(fts) (a
   one-word MATCH's weighted count in the row times 2^32 plus the row's length) and the aggregate
   lantern_shortlist(rowid, shape), which builds a shortlist blob from rows in rowid order. */
int lantern_fulltext_register(sqlite3 *db, LanternRecorder *recorder);

/* Brackets one FTS5 insert (sign 1) or delete (sign -1) of the document `rowid`. */
void lantern_recorder_begin_document(LanternRecorder *recorder, int64_t rowid, int sign);
/* Returns 0, or -1 when FTS5 did not tokenize exactly one text per column or memory ran out
   (the recorder then refuses to save until cleared). The document's words are counted later, a
   chunk of documents at a time, and at the latest by lantern_recorder_finish. */
int lantern_recorder_end_document(LanternRecorder *recorder);
/* Counts the documents still waiting; call before reading words' states. SQLITE_OK or an error. */
int lantern_recorder_finish(LanternRecorder *recorder);
/* Forgets every word and shortlist: when the transaction is rolled back, or to bound memory. */
void lantern_recorder_clear(LanternRecorder *recorder);

/* The words met since the last clear, by index, and whether each changed since last saved. */
int64_t lantern_recorder_word_count(const LanternRecorder *recorder);
const char *lantern_recorder_word(const LanternRecorder *recorder, int64_t index, int *length);
int lantern_recorder_word_changed(const LanternRecorder *recorder, int64_t index);

/* A word's shortlist to store. `data`/`size` stay valid until the next save. */
typedef struct {
    int64_t itemCount;      /* items holding the word */
    const void *data;
    int size;
    int needsRebuild;       /* the depth fell below LANTERN_SHORTLIST_MIN_DEPTH (or the stored row was damaged) */
} LanternShortlistUpdate;

/* Encodes a loaded word's shortlist for storing and marks the word unchanged. */
int lantern_recorder_save(LanternRecorder *recorder, int64_t index, LanternShortlistUpdate *update);
/* Replaces a word's shortlist and item count with those rebuilt from FTS5 (lantern_shortlist). */
int lantern_recorder_replace(LanternRecorder *recorder, int64_t index, const void *data, int size, int64_t itemCount);

/* Writes into `output` the one token `text` becomes under the "lantern" tokenizer, returning its
   length, or -1 when it becomes no token or several (or the token is longer than `capacity`). */
int lantern_single_token(sqlite3 *db, const char *text, int length, char *output, int capacity);

/* A tokenizer of the "lantern" kind opened once on a connection, for reading texts as the index
   does (snippets find a query's words in a passage with it, as FTS5 matched them). NULL when the
   tokenizer is not registered or memory ran out. Close it before the connection. */
typedef struct LanternTokenizer LanternTokenizer;
LanternTokenizer *lantern_tokenizer_open(sqlite3 *db);
void lantern_tokenizer_close(LanternTokenizer *tokenizer);

/* Calls `visit` for every token of `text` as a query is tokenized (lowercased, diacritics
   removed, stemmed): the token's bytes, and where its source lies in `text` (byte offsets, end
   exclusive). A nonzero return from `visit` stops the walk and is returned; otherwise SQLITE_OK,
   or the tokenizer's error. */
typedef int (*lantern_token_visitor)(void *context, const char *token, int length, int start, int end);
int lantern_tokenizer_run(LanternTokenizer *tokenizer, const char *text, int length, lantern_token_visitor visit, void *context);

#endif
