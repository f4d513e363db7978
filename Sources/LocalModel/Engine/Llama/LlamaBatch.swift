import CLlama

/// A `llama_batch` that holds tokens of several sequences at once, so one `llama_decode` runs
/// every waiting sequence's next step together (`SharedContext`).
///
/// Not thread-safe; filled and decoded on the engine thread only.
final class LlamaBatch {
    private var batch: llama_batch
    let capacity: Int
    /// Tokens added since the last `clear`.
    var count: Int { Int(batch.n_tokens) }

    init(capacity: Int) {
        self.capacity = capacity
        batch = llama_batch_init(Int32(capacity), 0, 1)
    }

    deinit { llama_batch_free(batch) }

    func clear() { batch.n_tokens = 0 }

    /// Adds `token` at `position` of `sequence`; `output` asks for its logits.
    func add(_ token: Token, position: Int, sequence: Int32, output: Bool) {
        let index = Int(batch.n_tokens)
        precondition(index < capacity, "LlamaBatch holds \(capacity) tokens")
        batch.token[index] = token
        batch.pos[index] = Int32(position)
        batch.n_seq_id[index] = 1
        batch.seq_id[index]![0] = sequence
        batch.logits[index] = output ? 1 : 0
        batch.n_tokens += 1
    }

    /// `llama_decode` of what was added; llama.cpp's status (0 when it went well).
    func decode(in context: LlamaContextHandle) -> Int32 { llama_decode(context.pointer, batch) }
}
