/// A JSON value with exact integers and ordered object keys.
///
/// Lantern needs its own JSON type (rather than `[String: Any]` or Foundation's
/// `JSONSerialization`) because the grammar compiler and the wire format depend on two things
/// Foundation does not keep: the order of an object's keys (schemas list properties in the order
/// the model must write them) and the difference between `1` and `1.0` (an integer argument must
/// reach a tool as an integer). Equality is JSON's: `1 == 1.0`, and objects compare by their
/// members regardless of order; `jsonString` shows the order.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number. Non-finite values cannot be written as JSON and serialize as `null`.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The compact, deterministic JSON text of this value: keys in their stored order, no
    /// whitespace, `/` unescaped, control characters escaped.
    public var jsonString: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.format(d)
        case .string(let s): JSONValue.writeQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, (key, value)) in object.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeQuoted(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// The shortest digits that read back as the same double, written without an exponent
    /// from 1e-6 up to 1e21 (as JavaScript does) since models and grammars write plain
    /// decimals; integral values keep a `.0` so they still read as doubles.
    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        let text = d.description  // shortest round-tripping form, e.g. "1.5", "-1e-06", "1e+16"
        guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...]),
              exponent >= -6, exponent < 21 else { return text }
        let mantissa = text[..<e]
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        let unsigned = mantissa.drop { $0 == "-" }
        let digits = unsigned.filter { $0 != "." }
        let point = (unsigned.firstIndex(of: ".").map { unsigned.distance(from: unsigned.startIndex, to: $0) } ?? unsigned.count) + exponent
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) + ".0" }
        return sign + digits.prefix(point) + "." + digits.dropFirst(point)
    }

    /// `s` as a JSON string literal, quotes included.
    public static func quoted(_ s: String) -> String {
        var out = ""
        writeQuoted(s, to: &out)
        return out
    }

    static func writeQuoted(_ s: String, to out: inout String) {
        QuotedText.write(s, to: &out) { value in
            switch value {
            case 0x08: return "\\b"
            case 0x0C: return "\\f"
            default:
                let hex = String(value, radix: 16)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` when this is an object; nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range; nil otherwise.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }

    /// The value as an `Int` when it is an integer, or a double with no fraction that fits.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d): return d.rounded() == d ? Int(exactly: d) : nil
        default: return nil
        }
    }

    /// The value as a `Double` when it is any number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The name JSON Schema gives this value's type (`"integer"` for whole numbers).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double(let d): return d.rounded() == d && d.isFinite ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Equality (JSON's, not Swift's structural one)

extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double):
            if let a = lhs.intValue, let b = rhs.intValue { return a == b }
            return lhs.doubleValue == rhs.doubleValue
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int, .double:
            hasher.combine(2)
            if let i = intValue { hasher.combine(i) } else { hasher.combine(doubleValue) }
        case .string(let s): hasher.combine(3); hasher.combine(s)
        case .array(let a): hasher.combine(4); hasher.combine(a)
        case .object(let o): hasher.combine(5); hasher.combine(o)
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keys keep the order written in the literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { jsonString }
}

/// Apple's name for the value a model generates under a schema.
///
/// Foundation Models calls structured model output `GeneratedContent`; in Lantern that content
/// is plain JSON (the grammar makes the model write JSON), so the two are the same type and code
/// written against Apple's name reads the same here.
public typealias GeneratedContent = JSONValue
