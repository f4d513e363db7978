import CLlama
import Foundation

/// A `llama_context`: the KV cache and compute buffers for `sequences` conversations, each with
/// its own stream of `size` cells (llama.cpp's `n_seq_max`, not unified), decoded together.
///
/// Not thread-safe; `SharedContext` is its only owner and uses it on the engine thread.
final class LlamaContextHandle {
    let pointer: OpaquePointer
    let model: LlamaModelHandle
    /// Tokens each sequence can hold.
    let size: Int
    /// The most tokens one `llama_decode` takes.
    let batchSize: Int
    /// What a sequence's saved state depends on in this context (`PromptStateKey`): the window
    /// and the KV cache's types and attention kernel.
    let stateLayout: String

    init(model: LlamaModelHandle, contextSize: Int, sequences: Int, threads: Int) throws(LocalModelError) {
        var params = llama_context_default_params()
        params.n_ctx = UInt32(contextSize * sequences)
        params.n_seq_max = UInt32(sequences)
        // each sequence attends over its own cells only: sessions share no prefix worth a
        // unified buffer, and their attention stays as cheap as a context of their own
        params.kv_unified = false
        params.n_batch = UInt32(min(contextSize, Int(params.n_batch)))
        params.n_ubatch = min(params.n_ubatch, params.n_batch)
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(threads)
        params.no_perf = true
        // Only the last token of each sequence's part of a batch is read (`logits(at:)`); by
        // default llama.cpp reserves compute buffer for one output per batch token (49,152 ×
        // 512 floats, 96 MiB, for SmolLM2). llama-server sets the same limit.
        params.n_outputs_max = UInt32(sequences)
        let what = sequences == 1 ? "a \(contextSize)-token context" : "\(sequences) sequences of \(contextSize) tokens in one context"
        let context = try model.newContext(params, what: what)
        self.pointer = context
        self.model = model
        self.size = Int(llama_n_ctx_seq(context))
        self.batchSize = Int(params.n_batch)
        self.stateLayout = "window \(size), K \(params.type_k.rawValue), V \(params.type_v.rawValue), "
            + "flash attention \(params.flash_attn_type.rawValue), unified \(params.kv_unified), full SWA \(params.swa_full)"
    }

    deinit {
        nonisolated(unsafe) let pointer = pointer
        RPCServerLoss.release(on: model.rpcServers) { llama_free(pointer) }
    }

    /// Forgets `sequence`'s cached tokens from `position` on; false when the model's memory
    /// cannot be cut there (recurrent or sliding-window models), in which case the caller
    /// clears the sequence.
    func removeTokens(of sequence: Int32, from position: Int) -> Bool {
        llama_memory_seq_rm(llama_get_memory(pointer), sequence, Int32(position), -1)
    }

    /// Forgets all of `sequence`'s cached tokens.
    func clear(_ sequence: Int32) {
        _ = llama_memory_seq_rm(llama_get_memory(pointer), sequence, -1, -1)
    }

    /// `sequence`'s KV state in llama.cpp's serialisation (`llama_state_seq_get_data`), to save
    /// and load into another context later; nil when llama.cpp wrote none.
    func state(of sequence: Int32) -> Data? {
        let size = llama_state_seq_get_size(pointer, sequence)
        guard size > 0 else { return nil }
        var data = Data(count: size)
        let written = data.withUnsafeMutableBytes { raw in
            llama_state_seq_get_data(pointer, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size, sequence)
        }
        return written == size ? data : nil
    }

    /// Replaces `sequence`'s cells with a state from `state(of:)` of a context of the same
    /// layout; false when llama.cpp refused it, the sequence then empty.
    func restore(_ state: Data, into sequence: Int32) -> Bool {
        clear(sequence)
        let read = state.withUnsafeBytes { raw in
            llama_state_seq_set_data(pointer, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), state.count, sequence)
        }
        if read == 0 { clear(sequence) }
        return read != 0
    }

    /// Waits until the last decode's computation is done: llama_decode may return while a
    /// backend (an RPC server, a GPU) still computes, and reading the logits would wait then.
    func synchronize() { llama_synchronize(pointer) }

    /// A copy of the logits of batch token `index` of the last decode (one that asked for
    /// output): copied, because the next decode of any sequence overwrites them.
    func logits(at index: Int) -> [Float]? {
        guard let row = llama_get_logits_ith(pointer, Int32(index)) else { return nil }
        return Array(UnsafeBufferPointer(start: row, count: model.vocabularySize))
    }
}
