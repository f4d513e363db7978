import Foundation
import LocalModel
import SearchIndex
import Synchronization

/// LocalModel's `EmbeddingModel` as the index's `TextEmbedder`: the one place that knows both,
/// so `SearchIndex` stays free of models. Its identity names the model, its full file digest and
/// its dimension (`EmbeddingModelIdentity`), so an index refuses vectors of another file.
///
/// Opened from a file, it reads the identity from the file's header and bytes and loads the
/// model on the first embedding: an index build writes every item's words first, and the
/// model's weights and context (about 55 MB for all-MiniLM-L6-v2) are not held through that,
/// but take memory the words phase gave back (`SearchableIndex.embedPendingItems`).
public struct ModelTextEmbedder: TextEmbedder {
    public let identity: String
    public let dimension: Int
    private let model: LoadedOnFirstUse

    /// An embedder over a model already loaded; reads the model file's digest once (see
    /// `EmbeddingModel.identity()`).
    public init(model: EmbeddingModel) throws(LocalModelError) {
        let identity = try model.identity()
        self.identity = Self.text(identity)
        self.dimension = identity.dimension
        self.model = LoadedOnFirstUse(loaded: model)
    }

    /// An embedder over the embedding model at `url`, run on `threads` threads (every core when
    /// nil), loaded on the first embedding. What can be checked without loading is checked
    /// here: a count outside 1...`LocalModel.Configuration.maximumThreads` is
    /// `.threadCountOutOfRange`, a file that is no GGUF or no embedding model throws as
    /// `EmbeddingModelIdentity(fileAt:)` does; a load that fails later fails that embedding.
    public init(contentsOf url: URL, threads: Int? = nil) throws(LocalModelError) {
        var configuration = EmbeddingModel.Configuration()
        if let threads { configuration.threads = threads }
        try configuration.validate()
        let identity = try EmbeddingModelIdentity(fileAt: url)
        self.identity = Self.text(identity)
        self.dimension = identity.dimension
        self.model = LoadedOnFirstUse(url: url, configuration: configuration, identity: identity)
    }

    private static func text(_ identity: EmbeddingModelIdentity) -> String {
        "\(identity.name) (\(identity.dimension) dimensions, sha256 \(identity.sha256))"
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        try await model.get().embed(texts)
    }

    public func embedCountingTokens(_ texts: [String]) async throws -> (vectors: [[Float]], tokens: Int?) {
        let embeddings = try await model.get().embeddings(for: texts)
        return (embeddings.map(\.vector), embeddings.reduce(0) { $0 + $1.tokenCount })
    }

    /// The model: given, or loaded from its file once, by the first caller, and kept. The load
    /// checks that the file is still the one whose identity the embedder reported.
    private final class LoadedOnFirstUse: Sendable {
        private enum State {
            case file(URL, EmbeddingModel.Configuration, EmbeddingModelIdentity)
            case loaded(EmbeddingModel)
        }
        private let state: Mutex<State>

        init(loaded model: EmbeddingModel) {
            state = Mutex(.loaded(model))
        }

        init(url: URL, configuration: EmbeddingModel.Configuration, identity: EmbeddingModelIdentity) {
            state = Mutex(.file(url, configuration, identity))
        }

        func get() throws(LocalModelError) -> EmbeddingModel {
            try state.withLock { (state) throws(LocalModelError) -> EmbeddingModel in
                switch state {
                case .loaded(let model):
                    return model
                case .file(let url, let configuration, let expected):
                    let model = try EmbeddingModel(contentsOf: url, configuration: configuration)
                    let found = try model.identity()
                    guard found == expected else {
                        throw .embeddingModelChanged(path: url.path, expected: expected.description, found: found.description)
                    }
                    state = .loaded(model)
                    return model
                }
            }
        }
    }
}
