/// A samples line that could not become an `EvaluationSample`: which file, which line, what was wrong.
///
/// The message names the line and the field so the dataset can be fixed in an editor
/// (`samples.jsonl line 4: "expectedIdentifiers" is missing; …`).
public struct SampleReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when the lines came from one.
    public let path: String?
    /// 1-based; 0 for a problem with the file as a whole.
    public let line: Int
    public let problem: Problem

    public enum Problem: Sendable, Hashable {
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
    }

    public init(path: String?, line: Int, problem: Problem) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    public var description: String {
        let place = [path, line > 0 ? "line \(line)" : nil].compactMap { $0 }.joined(separator: " ")
        return (place.isEmpty ? "" : "\(place): ") + problemText
    }

    private var problemText: String {
        let shape = #"{"id": "a", "prompt": "…", "expectedIdentifiers": ["item-1"]}"#
        switch problem {
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
