import CSQLite

/// What a failed call's primary result code says about its cause, for the advice
/// `SearchIndexError.database` gives: never to delete the index for a condition that passes (a
/// lock, a full disk).
enum SQLiteFailureCause {
    case damagedFile, diskFull, noPermission, diskError, outOfMemory, other

    init(code: Int) {
        switch Int32(truncatingIfNeeded: code) & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: self = .damagedFile
        case SQLITE_FULL: self = .diskFull
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_AUTH: self = .noPermission
        case SQLITE_IOERR: self = .diskError
        case SQLITE_NOMEM: self = .outOfMemory
        default: self = .other
        }
    }
}
