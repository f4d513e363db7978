/// Turns texts into vectors for an index's search by meaning.
///
/// The index knows nothing about models: whatever embeds (LocalModel's `EmbeddingModel`, through
/// the adapter in SearchTool's setup, or a test's fake) stands behind this protocol. An index
/// records the `identity` of the embedder that made its vectors and refuses another one
/// (`SearchIndexError.embedderMismatch`), since vectors of two models cannot be compared.
public protocol TextEmbedder: Sendable {
    /// Names the model and everything that changes its vectors (file digest, pooling, dimension);
    /// two embedders with the same identity make the same vectors.
    var identity: String { get }
    /// Length of every vector.
    var dimension: Int { get }
    /// One vector per text, in order, each of length `dimension`. Vectors need not be unit
    /// length; the index normalizes them.
    func embed(_ texts: [String]) async throws -> [[Float]]
    /// `embed(_:)`, and how many tokens the model read for all the texts, framing included: what
    /// the embedding pass reports (`EmbeddingProgress.embeddedTokens`), since the model's cost
    /// follows tokens, not texts. The default counts none (nil).
    func embedCountingTokens(_ texts: [String]) async throws -> (vectors: [[Float]], tokens: Int?)
}

extension TextEmbedder {
    public func embedCountingTokens(_ texts: [String]) async throws -> (vectors: [[Float]], tokens: Int?) {
        (try await embed(texts), nil)
    }
}
