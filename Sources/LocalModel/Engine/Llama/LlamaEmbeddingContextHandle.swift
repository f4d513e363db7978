import CLlama

/// A `llama_context` made for embeddings: outputs are pooled per sequence (the model's own
/// pooling), several texts share one forward pass as separate sequences, and nothing is kept
/// between calls.
///
/// Not thread-safe; `EmbeddingEncoder` (an actor on the engine thread) is its only owner.
final class LlamaEmbeddingContextHandle {
    let pointer: OpaquePointer
    let model: LlamaModelHandle
    /// Tokens one `embed` call may hold, all its texts together.
    let batchTokens: Int
    /// Texts one `embed` call may hold.
    let maximumSequences: Int
    /// Length of each vector.
    let dimension: Int
    /// The batch `embed` fills, allocated once for `batchTokens` tokens.
    private var batch: llama_batch

    init(model: LlamaModelHandle, batchTokens: Int, maximumSequences: Int, threads: Int) throws(LocalModelError) {
        var params = llama_context_default_params()
        // an encoder sees the whole batch in one pass (llama.cpp requires n_ubatch >= the batch
        // for non-causal models), so the window, the batch and the micro-batch are one size
        params.n_ctx = UInt32(batchTokens)
        params.n_batch = UInt32(batchTokens)
        params.n_ubatch = UInt32(batchTokens)
        params.n_seq_max = UInt32(maximumSequences)
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(threads)
        params.embeddings = true
        params.pooling_type = LLAMA_POOLING_TYPE_UNSPECIFIED
        params.no_perf = true
        let context = try model.newContext(params, what: "an embedding context for \(batchTokens) tokens")
        self.pointer = context
        self.model = model
        self.batchTokens = Int(llama_n_batch(context))
        self.maximumSequences = Int(llama_n_seq_max(context))
        self.dimension = Int(llama_model_n_embd_out(model.pointer))
        self.batch = llama_batch_init(Int32(batchTokens), 0, 1)
    }

    deinit {
        llama_batch_free(batch)
        llama_free(pointer)
    }

    /// The pooling llama.cpp applies (the model's, from its metadata).
    var pooling: llama_pooling_type { llama_pooling_type(pointer) }

    /// Runs the model once over `sequences` (together at most `batchTokens` tokens and
    /// `maximumSequences` texts) and returns each one's pooled vector, not normalised.
    func embed(_ sequences: [[Token]]) throws(LocalModelError) -> [[Float]] {
        batch.n_tokens = 0
        for (sequence, tokens) in sequences.enumerated() {
            for (position, token) in tokens.enumerated() {
                let index = Int(batch.n_tokens)
                batch.token[index] = token
                batch.pos[index] = Int32(position)
                batch.n_seq_id[index] = 1
                batch.seq_id[index]![0] = Int32(sequence)
                // every token's output takes part in the pooling
                batch.logits[index] = 1
                batch.n_tokens += 1
            }
        }
        // a decoder-based embedder keeps a KV cache; an encoder (BERT) has none
        if let memory = llama_get_memory(pointer) { llama_memory_clear(memory, true) }
        let status = llama_decode(pointer, batch)
        guard status == 0 else { throw .embeddingFailed(code: status, texts: sequences.count, tokens: Int(batch.n_tokens)) }
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        for sequence in 0..<sequences.count {
            guard let pooled = llama_get_embeddings_seq(pointer, Int32(sequence)) else {
                throw .embeddingFailed(code: -1, texts: sequences.count, tokens: Int(batch.n_tokens))
            }
            vectors.append(Array(UnsafeBufferPointer(start: pooled, count: dimension)))
        }
        return vectors
    }
}
