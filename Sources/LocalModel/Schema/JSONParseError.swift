/// Text that is not valid JSON, with where it went wrong and what was expected there.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offset in UTF-8 bytes from the start of the text.
    public let offset: Int
    /// 1-based line and column (column in bytes) of `offset`.
    public let line: Int
    public let column: Int
    /// What the parser needed at this point, e.g. `"',' or '}'"`.
    public let expected: String
    /// What it found instead (a short excerpt, or "end of text").
    public let found: String

    public var description: String {
        "invalid JSON at line \(line), column \(column) (byte \(offset)): expected \(expected), found \(found)"
    }
}
