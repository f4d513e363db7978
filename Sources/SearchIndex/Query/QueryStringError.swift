/// A malformed query string: where (0-based character offset), what was expected and what was found.
public struct QueryStringError: Error, Sendable, Equatable, CustomStringConvertible {
    public var position: Int
    public var expected: String
    public var found: String

    public var description: String {
        "Query string error at character \(position): expected \(expected), found \(found)."
    }
}
