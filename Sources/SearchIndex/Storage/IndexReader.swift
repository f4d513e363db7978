import Foundation

/// One read-only connection in its own actor, so searches run beside the writer and beside each
/// other (WAL lets readers see the last committed state while a write or batch is in progress).
actor IndexReader {
    private let database: SQLiteDatabase
    /// This connection's vectors for searches by meaning, loaded on first use.
    private let vectors = VectorMatrixCache()

    init(path: String) throws(SearchIndexError) {
        database = try SQLiteDatabase(path: path, readOnly: true)
        try database.execute("PRAGMA cache_size = -65536; PRAGMA mmap_size = 1073741824; PRAGMA temp_store = MEMORY;")
    }

    /// Runs `body` on this connection, with its vectors for searches by meaning.
    func read<T: Sendable>(_ body: @Sendable (SQLiteDatabase, VectorMatrixCache) throws(SearchIndexError) -> T) throws(SearchIndexError) -> T {
        try body(database, vectors)
    }
}
