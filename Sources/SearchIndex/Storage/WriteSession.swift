import Foundation

/// The writer connection's transactions on a file that other processes may write too.
///
/// - Every write transaction takes SQLite's write lock first (`BEGIN IMMEDIATE`), so no write
///   starts from a snapshot another connection has since changed, and `begin()` tells whether
///   another connection wrote since this one's last write transaction: each write transaction
///   stores a fresh random stamp in the `meta` row `writer`, and a stamp other than the one this
///   connection stored last means another writer came in between (or this one's last
///   transaction was rolled back). The owner then drops what it keeps in memory between writes
///   (the word recorder's shortlists and item counts, the custom keys), which that write may
///   have made stale. The stamp is read and written under the write lock, and it also catches
///   this connection's own rolled-back transaction, which `PRAGMA data_version` does not.
/// - The file's `meta` row `log` says whether its latest changes may be only in the write-ahead
///   log (`open`) or whether the file alone holds the index (`closed`). A writer marks it `open`,
///   and folds that into the file, before its first change of a session; `foldLogIntoFile()`
///   marks it `closed` and folds the whole log in (`wal_checkpoint(TRUNCATE)`). So a file copied
///   without its `-wal` while a writer was at work says so when opened
///   (`SearchIndexError.missingWriteAheadLog`) instead of opening as an older index. The marker
///   is folded in with a passive checkpoint, so a reader in another process holding an older
///   snapshot at that moment can keep it out of the file: the check is a safeguard, not a proof.
final class WriteSession {
    private let database: SQLiteDatabase
    /// The stamp this connection stored in its last write transaction (nil before the first).
    private var stamp: Int64?
    /// Whether the file says `open` as far as this connection knows.
    private var logMarked: Bool

    static let markerKey = "log"
    static let stampKey = "writer"
    static let open = "open"
    static let closed = "closed"

    init(database: SQLiteDatabase, logMarked: Bool) throws(SearchIndexError) {
        self.database = database
        self.logMarked = logMarked
    }

    /// When the index is released: an unfinished batch is rolled back and the log folded into the
    /// file, without waiting for another process's lock (that process folds it in when it ends).
    /// A process that ends without releasing the index (`exit`, `_exit`) calls
    /// `SearchableIndex.checkpoint()` before.
    deinit {
        database.setBusyTimeout(milliseconds: 0)
        if database.isInTransaction { try? database.execute("ROLLBACK") }
        _ = try? foldLogIntoFile()
    }

    /// The file's `log` marker (nil in files from before it existed, which count as closed).
    static func marker(_ database: SQLiteDatabase) throws(SearchIndexError) -> String? {
        try database.query("SELECT value FROM meta WHERE key = \(markerKey)") { $0.text(0) }.first ?? nil
    }

    static func setMarker(_ value: String, in database: SQLiteDatabase) throws(SearchIndexError) {
        try database.run("INSERT OR REPLACE INTO meta(key, value) VALUES(\(markerKey), \(value))")
    }

    /// Opens a write transaction holding the write lock, the file marked `open` first. Returns
    /// true when another connection may have written since this one's last write transaction.
    func begin() throws(SearchIndexError) -> Bool {
        var othersWrote = false
        // Marking takes a transaction of its own, and another writer may close the log in
        // between; a few rounds settle it (then the transaction goes ahead unmarked).
        for attempt in 0..<3 {
            try database.execute("BEGIN IMMEDIATE")
            do throws(SearchIndexError) {
                if try noticeOtherWriters() { othersWrote = true }
                if logMarked || attempt == 2 { return othersWrote }
                try Self.setMarker(Self.open, in: database)
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            logMarked = true
            try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
        return othersWrote
    }

    /// Compares the file's stamp with this connection's last and stores a new one, inside the
    /// transaction just begun (a rollback takes the new stamp back with it).
    private func noticeOtherWriters() throws(SearchIndexError) -> Bool {
        let found = try database.query("SELECT value FROM meta WHERE key = \(Self.stampKey)") { $0.integer(0) }.first
        let othersWrote = stamp == nil || found != stamp
        let next = Int64.random(in: .min ... .max)
        try database.run("INSERT OR REPLACE INTO meta(key, value) VALUES(\(Self.stampKey), \(next))")
        stamp = next
        if othersWrote { logMarked = try Self.marker(database) == Self.open }
        return othersWrote
    }

    /// Marks the log `closed` and folds it into the file. Returns true when the file alone now
    /// holds the whole index; false when another process's lock or snapshot kept part of the
    /// log out (that process folds it in when it ends). Call outside any transaction.
    func foldLogIntoFile() throws(SearchIndexError) -> Bool {
        do throws(SearchIndexError) {
            let marked = try logMarked ? true : Self.marker(database) == Self.open
            if marked {
                try database.immediateTransaction { () throws(SearchIndexError) in try Self.setMarker(Self.closed, in: database) }
                logMarked = false
            }
            let blocked = try database.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.integer(0) }.first ?? 1
            return blocked == 0
        } catch .indexBusy {
            return false
        }
    }
}
