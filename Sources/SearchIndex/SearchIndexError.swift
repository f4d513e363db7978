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

    public var description: String {
        switch self {
        case let .database(message, code, sql):
            return "SQLite error \(code): \(message) (while running: \(sql.prefix(200))). Check that the index file is writable and not corrupt; delete it to rebuild."
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
        }
    }
}
