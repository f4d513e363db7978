import CLlama
import Foundation

/// A `llama_context`: the KV cache and compute buffers for one conversation.
///
/// Not thread-safe; `InferenceContext` (an actor) is its only owner.
final class LlamaContextHandle {
    let pointer: OpaquePointer
    let model: LlamaModelHandle
    let size: Int
    let batchSize: Int

    init(model: LlamaModelHandle, contextSize: Int, threads: Int) throws(LocalModelError) {
        var params = llama_context_default_params()
        params.n_ctx = UInt32(contextSize)
        params.n_batch = UInt32(min(contextSize, Int(params.n_batch)))
        params.n_ubatch = min(params.n_ubatch, params.n_batch)
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(threads)
        params.no_perf = true
        // Only the last token's logits are ever read (`lastLogits()`); by default llama.cpp
        // reserves compute buffer for one output per batch token (49,152 × 512 floats, 96 MiB,
        // for SmolLM2). llama-server sets the same limit.
        params.n_outputs_max = 1
        let context = try model.newContext(params, what: "a \(contextSize)-token context")
        self.pointer = context
        self.model = model
        self.size = Int(llama_n_ctx(context))
        self.batchSize = Int(params.n_batch)
    }

    deinit {
        nonisolated(unsafe) let pointer = pointer
        RPCServerLoss.release(on: model.rpcServers) { llama_free(pointer) }
    }

    /// Decodes `tokens` at the positions after what the cache already holds.
    func decode(_ tokens: ArraySlice<Token>, position: Int) throws(LocalModelError) {
        var copy = Array(tokens)
        let status = copy.withUnsafeMutableBufferPointer { buffer in
            llama_decode(pointer, llama_batch_get_one(buffer.baseAddress, Int32(buffer.count)))
        }
        if status != 0 { throw .decodeFailed(code: status, position: position) }
    }

    /// Forgets cached tokens from `position` on; false when the model's memory cannot be cut
    /// there (recurrent or sliding-window models), in which case the caller clears it all.
    func removeTokens(from position: Int) -> Bool {
        llama_memory_seq_rm(llama_get_memory(pointer), 0, Int32(position), -1)
    }

    func clear() { llama_memory_clear(llama_get_memory(pointer), true) }

    /// The logits of the last decoded position, as a candidate list for sampling.
    func lastLogits() -> UnsafeMutablePointer<Float>? { llama_get_logits_ith(pointer, -1) }
}
