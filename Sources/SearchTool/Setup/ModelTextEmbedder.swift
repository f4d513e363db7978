import Foundation
import LocalModel
import SearchIndex

/// LocalModel's `EmbeddingModel` as the index's `TextEmbedder`: the one place that knows both,
/// so `SearchIndex` stays free of models. Its identity names the model, its full file digest and
/// its dimension (`EmbeddingModelIdentity`), so an index refuses vectors of another file.
public struct ModelTextEmbedder: TextEmbedder {
    public let model: EmbeddingModel
    public let identity: String
    public var dimension: Int { model.dimension }

    /// Reads the model file's digest once (see `EmbeddingModel.identity()`).
    public init(model: EmbeddingModel) throws(LocalModelError) {
        self.model = model
        let identity = try model.identity()
        self.identity = "\(identity.name) (\(identity.dimension) dimensions, sha256 \(identity.sha256))"
    }

    /// Loads the embedding model at `url` on `threads` threads (every core when nil); a count
    /// outside 1...`LocalModel.Configuration.maximumThreads` is `.threadCountOutOfRange`.
    public init(contentsOf url: URL, threads: Int? = nil) throws(LocalModelError) {
        var configuration = EmbeddingModel.Configuration()
        if let threads { configuration.threads = threads }
        try self.init(model: EmbeddingModel(contentsOf: url, configuration: configuration))
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        try await model.embed(texts)
    }

    public func embedCountingTokens(_ texts: [String]) async throws -> (vectors: [[Float]], tokens: Int?) {
        let embeddings = try await model.embeddings(for: texts)
        return (embeddings.map(\.vector), embeddings.reduce(0) { $0 + $1.tokenCount })
    }
}
