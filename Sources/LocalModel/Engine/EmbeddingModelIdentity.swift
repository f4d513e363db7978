/// Which model made a set of vectors: vectors from different models (or different files of one
/// model) are not comparable, so an index records this and refuses to mix them.
public struct EmbeddingModelIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `general.name` from the file, or the file's name without extension when it has none.
    public let name: String
    /// SHA-256 of the model file, as `sha256sum` prints it (and models.lock pins it).
    public let sha256: String
    /// Length of the vectors.
    public let dimension: Int

    public init(name: String, sha256: String, dimension: Int) {
        self.name = name
        self.sha256 = sha256
        self.dimension = dimension
    }

    public var description: String { "\(name) (\(dimension) dimensions, sha256 \(sha256.prefix(12)))" }
}
