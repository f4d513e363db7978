import CSQLite

/// A prepared statement owned by its connection; it finalizes its `sqlite3_stmt*` in `deinit`.
final class SQLiteStatement {
    let handle: OpaquePointer
    private unowned let database: SQLiteDatabase
    let sql: String

    init(handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
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

/// SQLite's SQLITE_TRANSIENT: it copies what it is handed before the call returns, so Swift
/// buffers need to live only for the call.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
