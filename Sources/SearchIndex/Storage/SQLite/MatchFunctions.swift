import CSQLite

/// The string-match operator of query strings as SQL functions, which SQLite has no built-in
/// for: `lantern_match(value, pattern, flags)` matches an attribute's value (`*` wildcards,
/// `c`/`d`/`w` modifiers, `l` for a joined list; see `StringPattern`), and
/// `lantern_text_match(data, pattern, flags)` the same on an item's stored, possibly compressed,
/// textContent (see `TextContentMatch`).
enum MatchFunctions {
    static func register(on database: SQLiteDatabase) throws(SearchIndexError) {
        try database.createFunction("lantern_match", argumentCount: 3, flags: SQLITE_UTF8 | SQLITE_DETERMINISTIC, function: { context, count, arguments in
            guard count == 3, let arguments,
                  let value = MatchFunctions.textArgument(arguments[0]),
                  let pattern = MatchFunctions.textArgument(arguments[1]) else {
                sqlite3_result_int(context, 0)
                return
            }
            let flags = MatchFunctions.textArgument(arguments[2]) ?? ""
            sqlite3_result_int(context, StringPattern.cached(pattern, flags: flags).matches(value) ? 1 : 0)
        })
        try database.createFunction("lantern_text_match", argumentCount: 3, flags: SQLITE_UTF8 | SQLITE_DETERMINISTIC, function: { context, count, arguments in
            guard count == 3, let arguments, sqlite3_value_type(arguments[0]) == SQLITE_BLOB,
                  let pattern = MatchFunctions.textArgument(arguments[1]) else {
                sqlite3_result_int(context, 0)
                return
            }
            let length = Int(sqlite3_value_bytes(arguments[0]))
            let stored = sqlite3_value_blob(arguments[0]).map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            let flags = MatchFunctions.textArgument(arguments[2]) ?? ""
            sqlite3_result_int(context, TextContentMatch.matches(stored: stored, pattern: pattern, flags: flags) ? 1 : 0)
        })
    }

    private static func textArgument(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
        return String(cString: text)
    }
}
