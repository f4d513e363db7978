/// One metadata value of a GGUF header, typed as far as the checks before a load need it.
///
/// Integers of every width are kept exactly (`Int128` holds both a uint64 and an int64), so a
/// check compares the number the file holds, not one that wrapped on the way. Arrays keep their
/// element type and length; their elements only when they are integers and few (the per-layer
/// counts a header may hold, such as `llama.attention.head_count`), never a vocabulary.
public enum GGUFValue: Sendable, Hashable {
    case integer(Int128, type: ValueType)
    case float(Double, type: ValueType)
    case bool(Bool)
    case string(String)
    /// `integers` holds the elements of an integer array of at most `keptIntegers` values.
    case array(elementType: ValueType, count: Int, integers: [Int128]?)

    /// The most elements of an integer array that are kept (more than any layer count).
    static let keptIntegers = 4_096

    /// GGUF's metadata value types, with the numbers the file format gives them.
    public enum ValueType: UInt32, Sendable, Hashable, CustomStringConvertible {
        case uint8 = 0, int8, uint16, int16, uint32, int32, float32, bool, string, array, uint64, int64, float64

        /// Bytes one value takes, for the fixed-width types.
        var width: Int? {
            switch self {
            case .uint8, .int8, .bool: 1
            case .uint16, .int16: 2
            case .uint32, .int32, .float32: 4
            case .uint64, .int64, .float64: 8
            case .string, .array: nil
            }
        }

        var isInteger: Bool {
            switch self {
            case .uint8, .int8, .uint16, .int16, .uint32, .int32, .uint64, .int64: true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .uint8: "uint8"
            case .int8: "int8"
            case .uint16: "uint16"
            case .int16: "int16"
            case .uint32: "uint32"
            case .int32: "int32"
            case .float32: "float32"
            case .bool: "bool"
            case .string: "string"
            case .array: "array"
            case .uint64: "uint64"
            case .int64: "int64"
            case .float64: "float64"
            }
        }
    }

    /// The value as `GGUFFile.metadata` shows it: numbers and strings as they are, arrays
    /// summarised by their length.
    public var text: String {
        switch self {
        case .integer(let value, _): String(value)
        case .float(let value, let type): type == .float32 ? String(Float(value)) : String(value)
        case .bool(let value): value ? "true" : "false"
        case .string(let value): value
        case .array(_, let count, _): "[\(count) values]"
        }
    }

    /// The GGUF type of the value.
    public var type: ValueType {
        switch self {
        case .integer(_, let type), .float(_, let type): type
        case .bool: .bool
        case .string: .string
        case .array: .array
        }
    }

    /// The number, when the value is an integer.
    public var integer: Int128? {
        if case .integer(let value, _) = self { return value }
        return nil
    }

    /// The value described for a message: `513 (uint32)`, `an array of 3 uint32`.
    var described: String {
        switch self {
        case .array(let elementType, let count, let integers):
            let shown = integers.map { $0.count <= 8 ? " [" + $0.map(String.init).joined(separator: ", ") + "]" : "" } ?? ""
            return "an array of \(count) \(elementType)\(shown)"
        case .string(let value): return "\"\(value.count > 40 ? value.prefix(40) + "…" : value)\""
        default: return "\(text) (\(type))"
        }
    }
}
