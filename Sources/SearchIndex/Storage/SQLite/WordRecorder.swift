import CFullText
import CSQLite

/// Sees the words of the documents FTS5 indexes (`beginDocument(rowid:sign: 1)`, the insert,
/// `endDocument()`) or deletes (sign -1) and keeps each word's item count and shortlist current
/// in memory, reading a word's row of `term_shortlists` when it first meets it (see
/// CFullText.h); `ItemStore` saves the changed ones. Owned by the writer connection, whose
/// tokenizer holds it; it goes after the connection has closed.
final class WordRecorder {
    let pointer: OpaquePointer

    /// The depth every stored shortlist keeps (`LANTERN_SHORTLIST_MIN_DEPTH`): the recorder
    /// rebuilds a shortlist from FTS5 before deletes wear it below this.
    static let guaranteedShortlistDepth = Int(LANTERN_SHORTLIST_MIN_DEPTH)

    init(weights: [UInt32]) throws(SearchIndexError) {
        guard let pointer = lantern_recorder_create(Int32(weights.count), weights) else {
            throw .database(message: "cannot create the full-text word recorder", code: Int(SQLITE_NOMEM), sql: "")
        }
        self.pointer = pointer
    }

    deinit { lantern_recorder_free(pointer) }

    func beginDocument(rowid: Int64, sign: Int32) { lantern_recorder_begin_document(pointer, rowid, sign) }

    func endDocument() throws(SearchIndexError) {
        guard lantern_recorder_end_document(pointer) == 0 else {
            throw Self.failure("cannot record a document's words (FTS5 tokenized it other than column by column, or an earlier step of this write failed); the write was undone", code: SQLITE_INTERNAL)
        }
    }

    /// Counts the documents whose words still wait (the recorder counts them in chunks).
    func finish() throws(SearchIndexError) {
        guard lantern_recorder_finish(pointer) == SQLITE_OK else {
            throw Self.failure("cannot count the words of the documents indexed (out of memory, or the index file is unreadable)", code: SQLITE_ERROR)
        }
    }

    /// Forgets every word (after a rollback, or to bound memory).
    func clear() { lantern_recorder_clear(pointer) }

    var wordCount: Int { Int(lantern_recorder_word_count(pointer)) }

    func word(_ index: Int) -> String {
        var length: Int32 = 0
        guard let bytes = lantern_recorder_word(pointer, Int64(index), &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
    }

    /// Whether word `index`'s count or shortlist changed since it was last saved.
    func changed(_ index: Int) -> Bool { lantern_recorder_word_changed(pointer, Int64(index)) != 0 }

    /// Word `index`'s row to store: how many items hold it, its shortlist, and whether deletes
    /// wore the shortlist down so far that it should be rebuilt from FTS5.
    func save(_ index: Int) throws(SearchIndexError) -> (itemCount: Int64, shortlist: [UInt8], needsRebuild: Bool) {
        var update = LanternShortlistUpdate()
        let code = lantern_recorder_save(pointer, Int64(index), &update)
        guard code == SQLITE_OK, let data = update.data else { throw Self.failure("cannot save the shortlist of \"\(word(index))\"", code: code) }
        return (update.itemCount, Array(UnsafeRawBufferPointer(start: data, count: Int(update.size))), update.needsRebuild != 0)
    }

    /// Replaces word `index`'s shortlist and item count with those rebuilt from FTS5.
    func replace(_ index: Int, shortlist: [UInt8], itemCount: Int64) throws(SearchIndexError) {
        let code = shortlist.withUnsafeBytes { lantern_recorder_replace(pointer, Int64(index), $0.baseAddress, Int32($0.count), itemCount) }
        guard code == SQLITE_OK else { throw Self.failure("cannot use the rebuilt shortlist of \"\(word(index))\"", code: code) }
    }

    private static func failure(_ message: String, code: Int32) -> SearchIndexError {
        .database(message: message, code: Int(code), sql: "")
    }
}
