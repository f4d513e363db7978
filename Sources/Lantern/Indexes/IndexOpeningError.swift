/// Why an index could not be opened or built, worded for the person who asked: what is wrong
/// and the command that fixes it (rebuild it, name it otherwise, pick the embedding model that
/// made its vectors). Front ends show `description` as it is.
public struct IndexOpeningError: Error, Sendable, CustomStringConvertible {
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
