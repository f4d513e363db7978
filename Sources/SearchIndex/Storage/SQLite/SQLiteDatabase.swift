import CFullText
import CHeapRelease
import CSQLite
import Foundation

/// One SQLite connection. Only the files of this folder (`Storage/SQLite/`) touch SQLite's and
/// CFullText's C pointers (and CHeapRelease's one call).
///
/// `SQLiteDatabase` owns a `sqlite3*` and `SQLiteStatement` owns a `sqlite3_stmt*`; both free them
/// in `deinit`. Neither is `Sendable`: each connection lives inside exactly one actor
/// (`SearchableIndex` for the writer, `IndexReader` for each reader), which is how the index stays
/// free of data races while SQLite itself runs in its multi-thread mode.
final class SQLiteDatabase {
    let handle: OpaquePointer
    let path: String
    private var statementCache: [String: SQLiteStatement] = [:]
    /// Rows counted by `lantern_tally()` since the caller last reset it.
    var tally = 0
    /// On the writer, the words FTS5 indexes and deletes (nil on readers).
    let recorder: WordRecorder?
    /// The index's tokenizer for reading texts (`tokens(of:)`), opened on first use.
    private var tokenizer: TextTokenizer?

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
        try MatchFunctions.register(on: self)
        try TallyFunction.register(on: self)
        try GroupTotalsFunction.register(on: self)
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

    /// Runs `body` in one read transaction, so every statement in it sees the same state of
    /// the file (a count beside the page it counts, items beside their vectors).
    func readTransaction<T>(_ body: () throws(SearchIndexError) -> T) throws(SearchIndexError) -> T {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
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
        tokenizer = nil
        // The recorder goes with this connection's properties, after the close. Tokenizers only
        // read it while FTS5 writes, which a closing connection no longer does, so it can go even
        // while unfinalized statements keep the connection open.
        sqlite3_close_v2(handle)
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

    /// The tokens of `text` under the index's tokenizer (lowercased, diacritics removed,
    /// stemmed), each with the UTF-8 byte range of its source in `text`, in order; empty when
    /// the tokenizer cannot run. Snippets find a query's words in a passage with it, as FTS5 does.
    func tokens(of text: String) -> [TextToken] {
        if tokenizer == nil { tokenizer = TextTokenizer(handle) }
        return tokenizer?.tokens(of: text) ?? []
    }

    /// Runs one or more statements without parameters (DDL, pragmas, transaction control).
    func execute(_ sql: String) throws(SearchIndexError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
    }

    /// Frees this connection's page cache and the recorder's words, and hands the heap memory
    /// the process has freed back to the system (`lantern_release_free_heap`): after a large
    /// write, outside any transaction (the recorder reads a word's saved row again when it next
    /// meets it), so what is loaded next takes its place instead of adding to the peak.
    func releaseMemory() throws(SearchIndexError) {
        try execute("PRAGMA shrink_memory")
        recorder?.clear()
        lantern_release_free_heap()
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

    /// Runs a query with its values bound and maps each row (its statement cached by its text).
    func query<T>(_ sql: SQL, _ map: (SQLiteRow) throws(SearchIndexError) -> T) throws(SearchIndexError) -> [T] {
        try statement(sql.text).query(sql.bindings, map)
    }

    /// Runs a statement with its values bound that returns no rows.
    func run(_ sql: SQL) throws(SearchIndexError) {
        try statement(sql.text).run(sql.bindings)
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The typed error for a failed call: another connection's lock (SQLITE_BUSY and its extended
    /// codes) is `indexBusy`, never a damaged file.
    func error(code: Int32, sql: String) -> SearchIndexError {
        if code & 0xFF == SQLITE_BUSY { return .indexBusy(path: path) }
        return .database(message: String(cString: sqlite3_errmsg(handle)), code: Int(code), sql: sql)
    }

    /// Registers an SQL function on this connection: a scalar one with `function`, an aggregate
    /// with `step` and `final`.
    func createFunction(
        _ name: String, argumentCount: Int32, flags: Int32, userData: UnsafeMutableRawPointer? = nil,
        function: (@convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)? = nil,
        step: (@convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)? = nil,
        final: (@convention(c) (OpaquePointer?) -> Void)? = nil
    ) throws(SearchIndexError) {
        let code = sqlite3_create_function_v2(handle, name, argumentCount, flags, userData, function, step, final, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: "create function \(name)") }
    }
}
