import LocalModel

/// A request's id as the client wrote it: a string or an integer (MCP allows no null id), echoed
/// unchanged in the response and named by `notifications/cancelled`.
public enum JSONRPCID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Int)

    /// The id a message carries; nil when it is neither a string nor an integer.
    init?(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .int(let number): self = .number(number)
        default: return nil
        }
    }

    var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .int(number)
        }
    }

    public var description: String { json.jsonString }
}
