import Foundation

/// Every failure the index reports. Each case's `description` says what went wrong and what to do,
/// so a caller (or a model reading a tool result) can act on it.
public enum SearchIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite refused a statement; carries SQLite's message, its result code and the SQL.
    case database(message: String, code: Int, sql: String)
    /// The index name is empty or contains characters that cannot be a file name.
    case invalidIndexName(String)
    /// The index folder could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// `beginBatch()` was called while a batch was already open.
    case batchAlreadyInProgress
    /// `endBatch(clientState:)` was called without `beginBatch()`.
    case noBatchInProgress
    /// Client state is limited to 250 bytes, as in Core Spotlight.
    case clientStateTooLarge(byteCount: Int)
    /// A value of the wrong kind was given for an attribute (for example a string for `rating`).
    case attributeKindMismatch(attribute: String, expected: AttributeKind, found: AttributeKind)
    /// An attribute name is neither a standard attribute nor a registered custom key.
    case unknownAttribute(String)
    /// An operation does not apply to an attribute of this kind (for example `sum` of `title`).
    case unsupportedOperation(String)
    /// A stored item's text could not be decoded; the item should be reindexed.
    case corruptStoredText(identifier: String)
    /// An item identifier is empty.
    case emptyIdentifier
    /// Another connection (usually another process) held the index's write lock for longer than
    /// the index waits (`SQLiteDatabase.busyTimeoutSeconds`); nothing was changed.
    case indexBusy(path: String)
    /// The file says its latest changes are in its write-ahead log (`<file>-wal`), and there is
    /// none beside it: the file was copied or moved alone while a writer had not folded the log
    /// into it. Opening it would show an older state of the index, so it is not opened.
    case missingWriteAheadLog(path: String)
    /// The file was written by a newer Lantern, in an index format this one cannot read; it is
    /// left as it is.
    case newerIndexFormat(path: String, found: Int, supported: Int)
    /// A place was asked of an item that does not have it (passage 50 of an item with 12, page
    /// 9 of a 5-page PDF, a page of a text without pages).
    case passageNotFound(identifier: String, place: String, passageCount: Int, pageCount: Int?)
    /// The index holds vectors of another embedding model than the one it was opened with;
    /// vectors of two models cannot be compared, so nothing was changed.
    case embedderMismatch(path: String, stored: String, given: String)
    /// Items were written to an index that holds vectors, opened without an embedder: they would
    /// have no vectors and searches by meaning would never find them.
    case embedderRequired(path: String, stored: String)
    /// Something that needs vectors (a search by meaning, embedding the items that have none)
    /// ran on an index opened without an embedder; `doing` names it.
    case noEmbedder(doing: String)
    /// The embedder failed, or returned the wrong number or length of vectors; the vectors of the
    /// chunk (or query) being embedded were not written, and the items keep their words.
    case embeddingFailed(reason: String)
    /// A stored vector has the wrong length for the index's embedder (a damaged file).
    case corruptVectors(rowid: Int64, expectedBytes: Int, foundBytes: Int)
    /// The index was built from another source than the one asked to refresh it; a refresh
    /// keeps only its own source's items, so it would have deleted the other's. Nothing changed.
    case sourceMismatch(path: String, recorded: IndexOrigin, given: IndexOrigin)
    /// The lock file that lets one writer at a time refresh the index could not be opened or
    /// locked (`IndexWriterLock`).
    case writerLockFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .database(message, code, sql):
            return "SQLite error \(code): \(message) (while running: \(sql.prefix(200))). " + Self.advice(code: code)
        case .invalidIndexName(let name):
            return "Invalid index name \"\(name)\": use letters, digits, '.', '-' or '_' (no slashes), or pass a file URL instead."
        case let .cannotCreateDirectory(path, reason):
            return "Cannot create the index folder \(path): \(reason). Set XDG_DATA_HOME to a writable folder or pass a file URL."
        case .batchAlreadyInProgress:
            return "beginBatch() was called while a batch is open; call endBatch(clientState:) first."
        case .noBatchInProgress:
            return "endBatch(clientState:) was called without beginBatch(); open a batch first."
        case .clientStateTooLarge(let count):
            return "Client state is \(count) bytes; the limit is 250 bytes. Store a smaller token (for example a version or a date)."
        case let .attributeKindMismatch(attribute, expected, found):
            return "Attribute \(attribute) holds \(expected) values, but a \(found) value was given."
        case .unknownAttribute(let name):
            return "Unknown attribute \"\(name)\": use a standard attribute name (title, rating, completionDate, …) or a custom key indexed before."
        case .unsupportedOperation(let what):
            return "Unsupported operation: \(what)."
        case .corruptStoredText(let identifier):
            return "The stored text of item \"\(identifier)\" could not be decoded; reindex that item."
        case .emptyIdentifier:
            return "An item's uniqueIdentifier is empty; give every item a non-empty identifier."
        case .indexBusy(let path):
            return "Another process holds the index \(path) (it is writing to it) and did not let go within \(SQLiteDatabase.busyTimeoutSeconds) seconds. Wait for that process to finish, or stop it, then try again; nothing was changed."
        case .missingWriteAheadLog(let path):
            return "The index \(path) was copied or moved without its write-ahead log \(path)-wal, which holds its latest changes, so the file alone is out of date and was not opened. Put the -wal file back beside it (copy both files together, or copy once the writing process has ended: Lantern folds the log into the file when a write command ends), or remove \(path) and build the index again."
        case let .passageNotFound(identifier, place, passageCount, pageCount):
            let pages = pageCount.map { "pages 1-\($0)" } ?? "no pages (it is not a paged document)"
            return "\(identifier) has no \(place): it has passages 0-\(max(0, passageCount - 1)) and \(pages). Ask for one of those, or for the words you are looking for."
        case let .embedderMismatch(path, stored, given):
            return "The index \(path) holds vectors made by \(stored), and it was opened with \(given); vectors of two models cannot be compared, so nothing was changed. Open it with the embedder that made it, or re-embed: open it without an embedder, call removeVectors(), then open it with the new embedder and index the items again (rebuild())."
        case let .embedderRequired(path, stored):
            return "The index \(path) holds vectors made by \(stored), and it was opened without an embedder, so new items would have no vectors; nothing was written. Open it with that embedder, or call removeVectors() to make it a full-text-only index."
        case .noEmbedder(let doing):
            return "\(doing) needs the index to be opened with an embedder (the model that makes the vectors); open it with one, or search for words instead."
        case .embeddingFailed(let reason):
            return "Embedding failed: \(reason). No vector of it was written (items stay searchable by their words, and the next embedding pass goes on where this one stopped); check the embedding model and try again."
        case let .corruptVectors(rowid, expected, found):
            return "The stored vector of passage \(rowid) is \(found) bytes, not \(expected): the file is damaged or was written by another embedder. Call removeVectors() and index the items again."
        case let .sourceMismatch(path, recorded, given):
            return "The index \(path) was built from \(recorded), not from \(given); refreshing it from \(given) would delete the items of \(recorded), so nothing was changed. Build \(given) into an index of another name, or replace the index's source (replacesOtherSource = true; ask index: --replace), which deletes its items first."
        case let .writerLockFailed(path, reason):
            return "Cannot lock \(path), which lets one writer at a time refresh the index: \(reason). Check that the index folder is writable by this user."
        case let .newerIndexFormat(path, found, supported):
            return "The index \(path) was built by a newer Lantern (index format \(found); this one reads format \(supported)) and was left untouched. Use that newer Lantern, or build the index again into another name."
        }
    }

    /// What to do about a SQLite failure, by its primary result code: never to delete the index
    /// for a condition that passes (a lock, a full disk).
    private static func advice(code: Int) -> String {
        switch SQLiteFailureCause(code: code) {
        case .damagedFile:
            return "The index file is damaged; remove it and build the index again."
        case .diskFull:
            return "The disk is full; free some space and try again (nothing was lost: the write was undone)."
        case .noPermission:
            return "Check that the index file and its folder are writable by this user."
        case .diskError:
            return "The disk could not be read or written; check the disk and the file system, then try again."
        case .outOfMemory:
            return "The process ran out of memory; close other programs or index in smaller batches."
        case .other:
            return "If it happens again, check the index (ask index --check NAME)."
        }
    }
}
