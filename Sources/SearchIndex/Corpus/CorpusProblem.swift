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
    /// A date in ISO-8601's form that is on no calendar (2024-02-30, hour 25); `field` names
    /// the attribute or custom key, `reason` the field of the date that is wrong.
    case impossibleDate(field: String, text: String, reason: String)
    /// A number no 64-bit floating-point value holds (1e400), as written (nil when unknown).
    case numberOutOfRange(field: String, text: String?)
    /// A standard number attribute outside the values its meaning allows (a latitude past 90).
    case valueOutOfRange(attribute: String, requirement: String, found: String)
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
            return "attribute \"\(attribute)\" must be an ISO-8601 date such as 2024-06-14T19:20:00Z (a time with Z or an offset such as +02:00) or 2024-06-14, found \"\(text)\""
        case let .impossibleDate(field, text, reason):
            return "\(field) holds \"\(text)\", which is not a real date or time: \(reason); correct the date"
        case let .numberOutOfRange(field, text):
            return "\(field) holds \(text ?? "a number"), a number out of range: a 64-bit floating-point number holds 0 and magnitudes from about 2.2e-308 to 1.8e308; write it within that range"
        case let .valueOutOfRange(attribute, requirement, found):
            return "attribute \"\(attribute)\" must be \(requirement), found \(found)"
        case .invalidCustomKey(let key):
            return "\"\(key)\" is not a valid custom attribute name: use ASCII letters, digits and _, not a standard attribute's name, not starting with kMD"
        }
    }
}
