/// A value that does not match its schema, naming where (`arguments.filters[2].limit`) and why.
public struct SchemaValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Dotted path from the root name given to `validate`, with `[i]` for array elements.
    public let path: String
    public let reason: String
    /// Whether the value had the wrong type altogether (used to pick the telling alternative of a union).
    let isTypeMismatch: Bool

    init(path: String, reason: String, isTypeMismatch: Bool = false) {
        self.path = path
        self.reason = reason
        self.isTypeMismatch = isTypeMismatch
    }

    public var description: String { "\(path): \(reason)" }
}
