import CSQLite

/// Column access for the current row of a statement (valid only while the statement is on it).
struct SQLiteRow {
    let statement: SQLiteStatement

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
}
