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
    /// A number JSON can write but a `Double` cannot hold (`1e400`, `1e-400`), as written
    /// (nil where the decoder did not say), so the reader can name it and its field.
    case outOfRangeNumber(String?)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let number = Self.number(in: container) {
            self = number
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([CorpusValue].self) {
            self = .array(values)
        } else {
            self = .object(try container.decode([String: CorpusValue].self))
        }
    }

    /// The value as a number, or as an out-of-range number; nil when it is no number.
    /// Foundation's JSONDecoder reports a value of another kind with a `DecodingError`
    /// (typeMismatch), and a number token no `Double` holds with an error of its own that
    /// carries the token; the document was parsed whole before any value is decoded, so no
    /// other error can come from here.
    private static func number(in container: any SingleValueDecodingContainer) -> CorpusValue? {
        do {
            return .number(try container.decode(Double.self))
        } catch is DecodingError {
            return nil
        } catch {
            return .outOfRangeNumber(writtenNumber(in: error))
        }
    }

    /// The first text the error carries (Foundation's holds the number as written).
    private static func writtenNumber(in value: Any, depth: Int = 0) -> String? {
        if let text = value as? String { return text }
        guard depth < 4 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let text = writtenNumber(in: child.value, depth: depth + 1) { return text }
        }
        return nil
    }

    /// How the value is named in an error message ("a string", "a list", ...).
    var kindName: String {
        switch self {
        case .string: "a string"
        case .number, .outOfRangeNumber: "a number"
        case .bool: "a boolean"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }
}
