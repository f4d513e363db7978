import SearchIndex

/// A function-calls line that could not become a `FunctionCallCase`: which file, which line,
/// what was wrong.
public typealias FunctionCallReaderError = JSONLinesError<FunctionCallProblem>

/// What was wrong with a function-calls line or file. An `Error` too, so the reader can throw it
/// from inside a line and add the line number once, where the line is known.
public enum FunctionCallProblem: JSONLinesProblem, Error {
    /// The file could not be read.
    case unreadableFile(reason: String)
    /// The line is not JSON, or not an object.
    case invalidJSON(reason: String)
    /// A required field is absent.
    case missingField(String)
    /// A field holds the wrong kind of value.
    case invalidField(String, reason: String)
    /// The id, the question, the tools or the calls are empty.
    case emptyField(String)
    /// An expected call names a function the case does not offer.
    case unknownFunction(String, field: String)
    /// Another line already used this id.
    case duplicateIdentifier(String, firstLine: Int)
    /// The file holds no cases.
    case empty

    public var explanation: String {
        let shape = #"{"id": "a", "question": "…", "tools": [{"name", "description", "parameters"}], "calls": [{"name", "arguments": {"x": {"values": [1]}}}]}"#
        switch self {
        case .unreadableFile(let reason):
            return "cannot read the function-calls file (\(reason)); check the path"
        case .invalidJSON(let reason):
            return "not a JSON object (\(reason)); each line must be one object like \(shape)"
        case .missingField(let field):
            return "the field \"\(field)\" is missing; every case needs \"id\", \"question\", \"tools\" and \"calls\""
        case let .invalidField(field, reason):
            return "\"\(field)\" is invalid: \(reason)"
        case .emptyField(let field):
            return "\"\(field)\" is empty; give every case a non-empty \(field)"
        case let .unknownFunction(name, field):
            return "\"\(field)\" names the function \"\(name)\", which is not among the case's tools; add the tool or fix the name"
        case let .duplicateIdentifier(id, firstLine):
            return "the id \"\(id)\" is already used on line \(firstLine); case ids must be unique"
        case .empty:
            return "the file holds no cases; write one JSON object per line like \(shape)"
        }
    }
}
