/// A corpus line that could not become an item: which file, which line, and what was wrong.
public typealias CorpusReaderError = JSONLinesError<CorpusProblem>

/// What was wrong with a corpus line or file.
public enum CorpusProblem: JSONLinesProblem {
    /// The file could not be read.
    case unreadableFile(reason: String)
    /// The line is not a JSON object.
    case invalidJSON(reason: String)
    /// A required field ("id", "attributes") is absent.
    case missingField(String)
    /// A field holds the wrong kind of JSON value.
    case wrongType(field: String, expected: String, found: String)
    /// The identifier is empty.
    case emptyIdentifier
    /// Another line already used this identifier.
    case duplicateIdentifier(String, firstLine: Int)
    /// A name under "attributes" that is not a standard attribute.
    case unknownAttribute(String)
    /// A date attribute whose text is not ISO-8601.
    case invalidDate(attribute: String, text: String)
    /// A key under "custom" that is not a valid custom attribute name.
    case invalidCustomKey(String)

    public var explanation: String {
        switch self {
        case .unreadableFile(let reason):
            return "cannot read the corpus file (\(reason)); check the path"
        case .invalidJSON(let reason):
            return "not a JSON object (\(reason)); each line must be one object like {\"id\": \"a\", \"attributes\": {\"title\": \"…\"}}"
        case .missingField(let field):
            return "the field \"\(field)\" is missing; every line needs \"id\" and \"attributes\""
        case let .wrongType(field, expected, found):
            return "\(field) must be \(expected), found \(found)"
        case .emptyIdentifier:
            return "\"id\" is empty; give every item a non-empty identifier"
        case let .duplicateIdentifier(id, firstLine):
            return "the id \"\(id)\" is already used on line \(firstLine); identifiers must be unique"
        case .unknownAttribute(let name):
            return "\"\(name)\" is not a standard attribute (title, textContent, rating, completionDate, …); put app-defined values under \"custom\""
        case let .invalidDate(attribute, text):
            return "attribute \"\(attribute)\" must be an ISO-8601 date such as 2024-06-14T19:20:00Z or 2024-06-14, found \"\(text)\""
        case .invalidCustomKey(let key):
            return "\"\(key)\" is not a valid custom attribute name: use ASCII letters, digits and _, not a standard attribute's name, not starting with kMD"
        }
    }
}
