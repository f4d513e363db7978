import CFullText
import CSQLite
import Foundation

/// The one file of this module that touches SQLite's C pointers.
///
/// `SQLiteDatabase` owns a `sqlite3*` and `SQLiteStatement` owns a `sqlite3_stmt*`; both free them
/// in `deinit`. Neither is `Sendable`: each connection lives inside exactly one actor
/// (`SearchableIndex` for the writer, `IndexReader` for each reader), which is how the index stays
/// free of data races while SQLite itself runs in its multi-thread mode.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    let path: String
    private var statementCache: [String: SQLiteStatement] = [:]
    /// Rows counted by `lantern_tally()` since the caller last reset it.
    var tally = 0
    /// On the writer, the words FTS5 indexes and deletes (nil on readers).
    let recorder: WordRecorder?

    /// Process-wide settings, applied once before the first open: no memory-usage statistics
    /// (Lantern never reads them, and their global lock showed in indexing profiles).
    private static let configured: Void = { _ = lantern_sqlite3_disable_memory_statistics() }()

    /// Opens (creating when `readOnly` is false) the database at `path`, with the "lantern"
    /// full-text tokenizer registered; with `recordingWeights` (the full-text columns' BM25
    /// weights), a `recorder` sees the words of every document FTS5 indexes or deletes.
    init(path: String, readOnly: Bool, recordingWeights: [UInt32]? = nil) throws(SearchIndexError) {
        _ = Self.configured
        recorder = try recordingWeights.map { (weights) throws(SearchIndexError) in try WordRecorder(weights: weights) }
        var pointer: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close_v2(pointer) }
            throw .database(message: message, code: Int(code), sql: "open \(path)")
        }
        handle = pointer
        self.path = path
        sqlite3_busy_timeout(handle, Self.busyTimeoutSeconds * 1_000)
        sqlite3_extended_result_codes(handle, 1)
        try registerFunctions()
        let registered = lantern_fulltext_register(handle, recorder?.pointer)
        guard registered == SQLITE_OK else { throw error(code: registered, sql: "register the lantern tokenizer") }
    }

    /// How long a statement waits for another connection's lock before failing with
    /// `SearchIndexError.indexBusy`.
    static let busyTimeoutSeconds: Int32 = 10

    /// Runs `body` in a transaction holding the write lock from its start (BEGIN IMMEDIATE),
    /// committed when it returns and rolled back when it throws.
    func immediateTransaction<T>(_ body: () throws(SearchIndexError) -> T) throws(SearchIndexError) -> T {
        try execute("BEGIN IMMEDIATE")
        do throws(SearchIndexError) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` again while it fails with `indexBusy`, for at most `busyTimeoutSeconds`: for
    /// the few statements SQLite refuses at once instead of waiting in its busy handler.
    func retryingWhileBusy(_ body: () throws(SearchIndexError) -> Void) throws(SearchIndexError) {
        let deadline = ContinuousClock.now + .seconds(Int(Self.busyTimeoutSeconds))
        var pause: UInt32 = 1_000
        while true {
            do throws(SearchIndexError) {
                return try body()
            } catch .indexBusy where ContinuousClock.now < deadline {
                usleep(pause)
                pause = min(pause * 2, 100_000)
            }
        }
    }

    /// Waits at most `milliseconds` for other connections' locks from now on (0: not at all).
    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    deinit {
        statementCache.removeAll()
        // Tokenizers only read the recorder while FTS5 writes, which a closing connection no
        // longer does, so it can go even while unfinalized statements keep the connection open.
        sqlite3_close_v2(handle)
        if let recorder { lantern_recorder_free(recorder.pointer) }
    }

    /// The one token `word` becomes under the index's tokenizer (lowercased, stemmed), or nil
    /// when it becomes none or several.
    func singleToken(_ word: String) -> String? {
        var bytes = Array(word.utf8)
        var output = [CChar](repeating: 0, count: 256)
        let length = bytes.withUnsafeMutableBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { lantern_single_token(handle, $0.baseAddress, Int32($0.count), &output, Int32(output.count)) }
        }
        guard length >= 0 else { return nil }
        return String(decoding: output[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs one or more statements without parameters (DDL, pragmas, transaction control).
    func execute(_ sql: String) throws(SearchIndexError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
    }

    /// A prepared statement for `sql`, cached per connection so hot paths prepare once.
    func statement(_ sql: String) throws(SearchIndexError) -> SQLiteStatement {
        if let cached = statementCache[sql] { return cached }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// A statement the caller keeps (the write path holds its statements, so each row costs no
    /// lookup of the SQL text).
    func prepare(_ sql: String) throws(SearchIndexError) -> SQLiteStatement {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else { throw error(code: code, sql: sql) }
        return SQLiteStatement(handle: pointer, database: self, sql: sql)
    }

    /// Runs a parameterized query and maps each row.
    func query<T>(_ sql: String, _ bindings: [SQLiteValue] = [],
                  _ map: (SQLiteRow) throws(SearchIndexError) -> T) throws(SearchIndexError) -> [T] {
        try statement(sql).query(bindings, map)
    }

    /// Runs a parameterized statement that returns no rows.
    func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SearchIndexError) {
        try statement(sql).run(bindings)
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The typed error for a failed call: another connection's lock (SQLITE_BUSY and its extended
    /// codes) is `indexBusy`, never a damaged file.
    fileprivate func error(code: Int32, sql: String) -> SearchIndexError {
        if code & 0xFF == SQLITE_BUSY { return .indexBusy(path: path) }
        return .database(message: String(cString: sqlite3_errmsg(handle)), code: Int(code), sql: sql)
    }

    /// Registers `lantern_match(value, pattern, flags)`, the string-match operator of query
    /// strings (`*` wildcards, `c`/`d`/`w` modifiers), which SQLite has no built-in for, and
    /// `lantern_text_match(data, pattern, flags)`, the same on stored textContent.
    private func registerFunctions() throws(SearchIndexError) {
        let code = sqlite3_create_function_v2(
            handle, "lantern_match", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 3, let arguments,
                      let value = textArgument(arguments[0]),
                      let pattern = textArgument(arguments[1]) else {
                    sqlite3_result_int(context, 0)
                    return
                }
                let flags = textArgument(arguments[2]) ?? ""
                sqlite3_result_int(context, StringPattern.cached(pattern, flags: flags).matches(value) ? 1 : 0)
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: "create function lantern_match") }
        // lantern_text_match(item_text.data, pattern, flags): `TextContentMatch`, the same match on
        // an item's stored (possibly compressed) textContent.
        let textCode = sqlite3_create_function_v2(
            handle, "lantern_text_match", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 3, let arguments, sqlite3_value_type(arguments[0]) == SQLITE_BLOB,
                      let pattern = textArgument(arguments[1]) else {
                    sqlite3_result_int(context, 0)
                    return
                }
                let length = Int(sqlite3_value_bytes(arguments[0]))
                let stored = sqlite3_value_blob(arguments[0]).map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
                let flags = textArgument(arguments[2]) ?? ""
                sqlite3_result_int(context, TextContentMatch.matches(stored: stored, pattern: pattern, flags: flags) ? 1 : 0)
            }, nil, nil, nil)
        guard textCode == SQLITE_OK else { throw error(code: textCode, sql: "create function lantern_text_match") }
        // lantern_tally(): true, and counts the rows it is evaluated for into `tally`, so a query
        // that sorts and cuts its rows also tells how many there were, in the same pass. Not
        // deterministic, so SQLite calls it for every row.
        let tallyCode = sqlite3_create_function_v2(
            handle, "lantern_tally", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, Unmanaged.passUnretained(self).toOpaque(),
            { context, _, _ in
                guard let owner = sqlite3_user_data(context) else { return }
                Unmanaged<SQLiteDatabase>.fromOpaque(owner).takeUnretainedValue().tally += 1
                sqlite3_result_int(context, 1)
            }, nil, nil, nil)
        guard tallyCode == SQLITE_OK else { throw error(code: tallyCode, sql: "create function lantern_tally") }
        // lantern_group_totals(key, value): see `GroupTotalsAccumulator`. The aggregate context
        // holds one retained accumulator, made at the first row and released by xFinal (which
        // SQLite calls once per aggregate, also when a statement is reset early).
        let aggregate = sqlite3_create_function_v2(
            handle, "lantern_group_totals", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil,
            { context, count, arguments in
                guard count == 2, let arguments, sqlite3_value_type(arguments[0]) != SQLITE_NULL else { return }
                guard let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))?
                    .assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else {
                    sqlite3_result_error_nomem(context)
                    return
                }
                let accumulator: GroupTotalsAccumulator
                if let existing = slot.pointee {
                    accumulator = Unmanaged<GroupTotalsAccumulator>.fromOpaque(existing).takeUnretainedValue()
                } else {
                    accumulator = GroupTotalsAccumulator()
                    slot.pointee = Unmanaged.passRetained(accumulator).toOpaque()
                }
                let value = sqlite3_value_type(arguments[1]) == SQLITE_NULL ? nil : sqlite3_value_double(arguments[1])
                accumulator.add(key: sqlite3_value_int64(arguments[0]), value: value)
            },
            { context in
                var bytes: [UInt8] = []
                if let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
                   let existing = slot.pointee {
                    bytes = Unmanaged<GroupTotalsAccumulator>.fromOpaque(existing).takeRetainedValue().encoded()
                    slot.pointee = nil
                }
                bytes.withUnsafeBytes { buffer in
                    if let base = buffer.baseAddress, buffer.count > 0 {
                        sqlite3_result_blob(context, base, Int32(buffer.count), sqliteTransient)
                    } else {
                        sqlite3_result_zeroblob(context, 0)
                    }
                }
            }, nil)
        guard aggregate == SQLITE_OK else { throw error(code: aggregate, sql: "create function lantern_group_totals") }
    }
}

/// Sees the words of the documents FTS5 indexes (`beginDocument(rowid:sign: 1)`, the insert,
/// `endDocument()`) or deletes (sign -1) and keeps each word's item count and shortlist current
/// in memory, reading a word's row of `term_shortlists` when it first meets it (see
/// CFullText.h); `ItemStore` saves the changed ones. Owned by the writer connection.
final class WordRecorder {
    fileprivate let pointer: OpaquePointer

    fileprivate init(weights: [UInt32]) throws(SearchIndexError) {
        guard let pointer = lantern_recorder_create(Int32(weights.count), weights) else {
            throw .database(message: "cannot create the full-text word recorder", code: Int(SQLITE_NOMEM), sql: "")
        }
        self.pointer = pointer
    }

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

private func textArgument(_ value: OpaquePointer?) -> String? {
    guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
    return String(cString: text)
}

/// A value bound to or read from SQLite.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared statement owned by its connection.
final class SQLiteStatement {
    fileprivate let handle: OpaquePointer
    private unowned let database: SQLiteDatabase
    let sql: String

    fileprivate init(handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    private func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds, steps through every row mapping each, and resets.
    func query<T>(_ bindings: [SQLiteValue], _ map: (SQLiteRow) throws(SearchIndexError) -> T) throws(SearchIndexError) -> [T] {
        defer { reset() }
        try bind(bindings)
        var rows: [T] = []
        while try step() { rows.append(try map(SQLiteRow(statement: self))) }
        return rows
    }

    /// Binds, runs to completion (no rows expected) and resets.
    func run(_ bindings: [SQLiteValue]) throws(SearchIndexError) {
        defer { reset() }
        try bind(bindings)
        while try step() {}
    }

    /// Every `reset()` clears the bindings to NULL, so NULLs are skipped (the write path's wide
    /// items row is mostly NULL), and text is handed over from the string's own UTF-8 storage
    /// when it has one, rather than through a copied C string.
    private func bind(_ values: [SQLiteValue]) throws(SearchIndexError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: continue
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                code = text.utf8.withContiguousStorageIfAvailable { bytes -> Int32 in
                    guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(bytes.count), sqliteTransient)
                    }
                } ?? sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), sqliteTransient)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), sqliteTransient)
                }
            }
            guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
        }
    }

    /// Advances one row; false when done.
    private func step() throws(SearchIndexError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw database.error(code: code, sql: sql)
    }
}

private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Column access for the current row of a statement.
struct SQLiteRow {
    fileprivate let statement: SQLiteStatement

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(column)) == SQLITE_NULL }

    func integer(_ column: Int) -> Int64 { sqlite3_column_int64(statement.handle, Int32(column)) }

    func double(_ column: Int) -> Double { sqlite3_column_double(statement.handle, Int32(column)) }

    /// The column's text, all of its bytes (NUL included: identifiers are kept exactly).
    func text(_ column: Int) -> String? {
        guard !isNull(column), let pointer = sqlite3_column_text(statement.handle, Int32(column)) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ column: Int) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, Int32(column)))
        guard count > 0, let pointer = sqlite3_column_blob(statement.handle, Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column as a value of its stored type.
    func value(_ column: Int) -> SQLiteValue {
        switch sqlite3_column_type(statement.handle, Int32(column)) {
        case SQLITE_INTEGER: return .integer(integer(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_TEXT: return text(column).map(SQLiteValue.text) ?? .null
        case SQLITE_BLOB: return blob(column).map(SQLiteValue.blob) ?? .null
        default: return .null
        }
    }
}
