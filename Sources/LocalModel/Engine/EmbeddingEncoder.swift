/// The llama.cpp context of one `EmbeddingModel`: packs texts into batches and runs them, one
/// batch at a time, on the engine thread.
///
/// An actor, so calls from several tasks take turns on the one context; its executor is the
/// engine thread, for the reason `EngineThread` gives (one OpenMP team for every forward pass).
actor EmbeddingEncoder {
    private let context: LlamaEmbeddingContextHandle

    nonisolated var unownedExecutor: UnownedSerialExecutor { EngineThread.shared.asUnownedSerialExecutor() }

    init(context: LlamaEmbeddingContextHandle) {
        self.context = context
    }

    /// A unit-length vector for each token sequence, in order. Each sequence must fit one batch
    /// (`EmbeddingModel` truncates them so); consecutive ones share a batch while they fit
    /// `batchTokens` and `maximumSequences`. A cancelled task stops between batches.
    func encode(_ sequences: [[Token]]) throws(LocalModelError) -> [[Float]] {
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        var start = 0
        while start < sequences.count {
            if Task.isCancelled { throw .cancelled }
            var end = start
            var tokens = 0
            while end < sequences.count, end - start < context.maximumSequences, tokens + sequences[end].count <= context.batchTokens {
                tokens += sequences[end].count
                end += 1
            }
            vectors += try context.embed(sequences[start..<end]).map(Self.unitLength)
            start = end
        }
        return vectors
    }

    /// `vector` scaled to Euclidean length 1 (llama-server's default normalisation), so a dot
    /// product is the cosine similarity.
    private static func unitLength(_ vector: [Float]) -> [Float] {
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return length > 0 ? vector.map { $0 / length } : vector
    }
}
