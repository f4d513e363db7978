import CSQLite

/// `lantern_tally()`: true, and counts the rows it is evaluated for into the connection's
/// `tally`, so a query that sorts and cuts its rows also tells how many there were, in the same
/// pass. Not deterministic, so SQLite calls it for every row.
enum TallyFunction {
    static func register(on database: SQLiteDatabase) throws(SearchIndexError) {
        try database.createFunction("lantern_tally", argumentCount: 0, flags: SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                    userData: Unmanaged.passUnretained(database).toOpaque(), function: { context, _, _ in
            guard let owner = sqlite3_user_data(context) else { return }
            Unmanaged<SQLiteDatabase>.fromOpaque(owner).takeUnretainedValue().tally += 1
            sqlite3_result_int(context, 1)
        })
    }
}
