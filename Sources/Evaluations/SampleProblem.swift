import SearchIndex

/// A samples line that could not become an `EvaluationSample`: which file, which line, what was wrong.
public typealias SampleReaderError = JSONLinesError<SampleProblem>

/// What was wrong with a samples line or file.
public enum SampleProblem: JSONLinesProblem {
    /// The file could not be read.
    case unreadableFile(reason: String)
    /// The line is not JSON, or not an object.
    case invalidJSON(reason: String)
    /// A required field is absent.
    case missingField(String)
    /// A field holds the wrong kind of value, or a trajectory is malformed.
    case invalidField(String, reason: String)
    /// The id or prompt is empty.
    case emptyField(String)
    /// Another line already used this id.
    case duplicateIdentifier(String, firstLine: Int)
    /// The file holds no samples.
    case empty

    public var explanation: String {
        let shape = #"{"id": "a", "prompt": "…", "expectedIdentifiers": ["item-1"]}"#
        switch self {
        case .unreadableFile(let reason):
            return "cannot read the samples file (\(reason)); check the path"
        case .invalidJSON(let reason):
            return "not a JSON object (\(reason)); each line must be one object like \(shape)"
        case .missingField(let field):
            return "the field \"\(field)\" is missing; every sample needs \"id\", \"prompt\" and \"expectedIdentifiers\""
        case let .invalidField(field, reason):
            return "\"\(field)\" is invalid: \(reason)"
        case .emptyField(let field):
            return "\"\(field)\" is empty; give every sample a non-empty \(field)"
        case let .duplicateIdentifier(id, firstLine):
            return "the id \"\(id)\" is already used on line \(firstLine); sample ids must be unique"
        case .empty:
            return "the file holds no samples; write one JSON object per line like \(shape)"
        }
    }
}
