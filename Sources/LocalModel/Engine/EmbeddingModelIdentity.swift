import Foundation

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

    /// The identity of the embedding model in the file at `url`, read from its header and its
    /// bytes without loading it: what an index records beside its vectors, known before the
    /// model's weights and context take memory (`EmbeddingModel.identity()` gives the same for a
    /// loaded one). Throws what `GGUFFile` throws for a file that is not a readable GGUF,
    /// `.notAnEmbeddingModel` for a model of another kind, and `.invalidMetadata` when the
    /// header states no vector length.
    public init(fileAt url: URL) throws(LocalModelError) {
        let header = try GGUFFile(contentsOf: url)
        let purpose = ModelPurpose(metadata: header.metadata)
        guard case .embedding = purpose else { throw .notAnEmbeddingModel(path: url.path, purpose: purpose.description) }
        // llama.cpp's output length: the projected one when the file has a projection, else the hidden size
        let architecture = header.architecture ?? "unknown"
        let projected = "\(architecture).embedding_length_out"
        let key = header.metadata[projected] != nil ? projected : "\(architecture).embedding_length"
        guard let dimension = header.metadata[key].flatMap(Int.init), dimension > 0 else {
            throw .invalidMetadata(path: url.path, key: key, value: header.metadata[key] ?? "(missing)", requirement: "a positive vector length")
        }
        self.init(name: header.metadata["general.name"] ?? url.deletingPathExtension().lastPathComponent,
                  sha256: try SHA256Digest(contentsOf: url).description, dimension: dimension)
    }

    public var description: String { "\(name) (\(dimension) dimensions, sha256 \(sha256.prefix(12)))" }
}
