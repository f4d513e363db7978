/// A schema Lantern cannot use, found before any generation starts.
///
/// `path` is a JSON pointer into the schema (`#/properties/limit`), so the message points at
/// the construct to change.
public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JSON Schema keyword or form that the compiler cannot turn into a grammar.
    case unsupported(construct: String, path: String, hint: String)
    /// A schema that contradicts itself or is malformed (minimum above maximum, empty enum, ...).
    case invalid(reason: String, path: String)
    /// `.reference(name)` / `$ref` with no definition of that name.
    case unresolvedReference(name: String, path: String)

    public var description: String {
        switch self {
        case .unsupported(let construct, let path, let hint):
            return "unsupported schema construct \(construct) at \(path): \(hint)"
        case .invalid(let reason, let path):
            return "invalid schema at \(path): \(reason)"
        case .unresolvedReference(let name, let path):
            return "reference to undefined \"\(name)\" at \(path); add it to the schema's definitions ($defs)"
        }
    }
}
