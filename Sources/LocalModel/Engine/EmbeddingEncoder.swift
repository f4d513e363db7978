/// The llama.cpp context of one `EmbeddingModel`: packs texts into forward passes and runs
/// them, one pass at a time, on the engine thread.
///
/// An actor, so calls from several tasks take turns on the one context; its executor is the
/// engine thread, for the reason `EngineThread` gives (one OpenMP team for every forward pass).
actor EmbeddingEncoder {
    private let context: LlamaEmbeddingContextHandle

    nonisolated var unownedExecutor: UnownedSerialExecutor { EngineThread.shared.asUnownedSerialExecutor() }

    init(context: LlamaEmbeddingContextHandle) {
        self.context = context
    }

    /// Texts packed together at most: packing looks at this many texts at a time, so a large
    /// call costs no more per text to plan, and cancellation is seen between windows too.
    static let packingWindow = 256

    /// A unit-length vector for each token sequence, in order. Each sequence must fit one pass
    /// (`EmbeddingModel` truncates them so). A cancelled task stops between passes.
    func encode(_ sequences: [[Token]]) throws(LocalModelError) -> [[Float]] {
        var vectors = [[Float]](repeating: [], count: sequences.count)
        for window in stride(from: 0, to: sequences.count, by: Self.packingWindow) {
            for pass in passes(sequences, window..<min(window + Self.packingWindow, sequences.count)) {
                if Task.isCancelled { throw .cancelled }
                let pooled = try context.embed(pass.map { sequences[$0] })
                for (index, vector) in zip(pass, pooled) { vectors[index] = Self.unitLength(vector) }
            }
        }
        return vectors
    }

    /// The texts of `range` grouped into forward passes of at most `batchTokens` tokens and
    /// `maximumSequences` texts: longest first, each into the first pass it fits (first-fit
    /// decreasing). Why: every pass costs a graph and a synchronisation of the threads per
    /// operation, which a busy machine makes dear, so fuller passes are fewer passes; texts
    /// taken in arrival order leave passes emptier (two passages of 200-odd tokens rarely
    /// fill 512, and a third never fits), and llama-server, which fills a pass from any of its
    /// waiting slots, made fewer of them.
    private func passes(_ sequences: [[Token]], _ range: Range<Int>) -> [[Int]] {
        var passes: [(texts: [Int], tokens: Int)] = []
        for index in range.sorted(by: { sequences[$0].count > sequences[$1].count }) {
            let count = sequences[index].count
            if let open = passes.firstIndex(where: { $0.tokens + count <= context.batchTokens && $0.texts.count < context.maximumSequences }) {
                passes[open].texts.append(index)
                passes[open].tokens += count
            } else {
                passes.append(([index], count))
            }
        }
        return passes.map(\.texts)
    }

    /// `vector` scaled to Euclidean length 1 (llama-server's default normalisation), so a dot
    /// product is the cosine similarity.
    private static func unitLength(_ vector: [Float]) -> [Float] {
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return length > 0 ? vector.map { $0 / length } : vector
    }
}
