import Foundation

/// One JSON value of a corpus line, as read before it is checked against an attribute's kind.
///
/// The index has no JSON model of its own (it must not depend on LocalModel's), and
/// `JSONSerialization` cannot tell `true` from `1` on every platform, so the reader decodes into
/// this small enum. Nested objects keep their members ("attributes", "custom").
enum CorpusValue: Decodable, Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([CorpusValue])
    case object([String: CorpusValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([CorpusValue].self) {
            self = .array(values)
        } else {
            self = .object(try container.decode([String: CorpusValue].self))
        }
    }

    /// How the value is named in an error message ("a string", "a list", ...).
    var kindName: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }
}
