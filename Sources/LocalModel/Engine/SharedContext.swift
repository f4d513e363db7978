import Foundation
import Synchronization

/// One llama.cpp context whose sequences several `InferenceContext`s share, so the next steps
/// of concurrent sessions run as one batch: one `llama_decode` for all of them, as
/// llama-server's continuous batching does. On a CPU a small model's single-token decode is
/// bound by reading the weights, and one pass that reads them once for every session raises
/// the total rate well past sessions taking turns.
///
/// How the batch forms: a session's `decode` queues its tokens and, when no flush is due yet,
/// posts one to the engine thread. The engine thread's queue is first in, first out, so the
/// sessions woken by the previous flush run their sampling and queue their next tokens before
/// the new flush runs; the flush decodes whatever is queued then. A lone session pays one
/// posted closure per token and decodes as it did with a context of its own.
///
/// Each sequence keeps its own KV cells (llama.cpp's non-unified cache), so a session's prefix
/// reuse works as before. llama.cpp runs such a batch as one forward pass per run of
/// consecutive sequence ids in increasing order (`split_equal`): the batch is laid out in
/// sequence order, and a new conversation takes the lowest free sequence, so the sessions at
/// work keep to one run (out of order, 8 sessions took 3–4 passes a step, 1.4× the time).
///
/// `@unchecked Sendable`: the handle and the batch are used only on the engine thread (in
/// `flush` and the posted releases); the queue and slots are behind a mutex, because an RPC
/// server's loss is reported from the thread that met it.
final class SharedContext: @unchecked Sendable {
    /// The window it was made for, which `LocalModel.makeContext` matches.
    let window: Int
    /// Tokens each sequence can hold.
    let size: Int
    private let handle: LlamaContextHandle
    private let batch: LlamaBatch
    private let state: Mutex<State>

    private struct State {
        var freeSequences: [Int32]
        /// Sequences given back whose cells the engine thread has not cleared yet.
        var releasing = 0
        var pending: [Request] = []
        var flushPosted = false
    }

    /// One sequence's tokens waiting to be decoded, and who waits for them.
    private struct Request {
        let tokens: ArraySlice<Token>
        let sequence: Int32
        let position: Int
        let wantsLogits: Bool
        let continuation: CheckedContinuation<Result<Decoded, LocalModelError>, Never>
    }

    /// What a decode request gets back: the logits it asked for, and how long the
    /// `llama_decode` that held its tokens took (the whole batch's, when sessions share it).
    struct Decoded {
        let logits: [Float]?
        let duration: Duration
    }

    /// Makes the context on the engine thread (where every llama.cpp call starts), with at
    /// least one sequence whatever `sequences` says (`Configuration.parallelSessions` is a
    /// settable field, so 0 can reach here).
    init(model: LlamaModelHandle, window: Int, sequences requested: Int, threads: Int) throws(LocalModelError) {
        let sequences = max(1, requested)
        let handle = try EngineThread.shared.run { () throws(LocalModelError) in
            try RPCServerLoss.watching(servers: model.rpcServers, report: { _ in }) { () throws(LocalModelError) in
                try LlamaContextHandle(model: model, contextSize: window, sequences: sequences, threads: threads)
            }
        }
        self.handle = handle
        self.window = window
        size = handle.size
        batch = LlamaBatch(capacity: handle.batchSize)
        state = Mutex(State(freeSequences: (0..<Int32(sequences)).reversed()))
    }

    /// What a decode that asked for logits throws when llama.cpp kept none.
    static let missingLogits = LocalModelError.noTokenAllowed(reason: "llama.cpp kept no scores (logits) for the last position")

    /// The largest request `decode` takes: callers split longer prompts.
    var batchSize: Int { batch.capacity }

    /// Takes the lowest free sequence for a new conversation; nil when all are in use.
    func takeSequence() -> Int32? { state.withLock { $0.freeSequences.popLast() } }

    /// Gives `sequence` back once its conversation is gone: its cells are cleared on the engine
    /// thread first, so the next conversation given it starts empty.
    func release(_ sequence: Int32) {
        state.withLock { $0.releasing += 1 }
        EngineThread.shared.post { [self] in
            handle.clear(sequence)
            state.withLock { state in
                state.releasing -= 1
                state.freeSequences.append(sequence)
                state.freeSequences.sort(by: >)
            }
        }
    }

    /// Whether a sequence is on its way back: released, its clearing still queued on the engine
    /// thread behind the decodes before it.
    var isReleasingSequence: Bool { state.withLock { $0.releasing > 0 } }

    /// Forgets `sequence`'s cells from `position` on; false when the model's memory cannot be
    /// cut there, in which case the caller clears the sequence. Engine thread only.
    func removeTokens(of sequence: Int32, from position: Int) -> Bool { handle.removeTokens(of: sequence, from: position) }

    /// Forgets all of `sequence`'s cells. Engine thread only.
    func clear(_ sequence: Int32) { handle.clear(sequence) }

    /// What a sequence's saved state depends on in this context (`LlamaContextHandle.stateLayout`).
    var stateLayout: String { handle.stateLayout }

    /// `sequence`'s KV state, to save (`LlamaContextHandle.state(of:)`). Engine thread only.
    func state(of sequence: Int32) -> Data? { handle.state(of: sequence) }

    /// Loads a saved state into `sequence`; false when llama.cpp refused it (the sequence is
    /// then empty). Engine thread only.
    func restore(_ state: Data, into sequence: Int32) -> Bool { handle.restore(state, into: sequence) }

    /// Decodes `tokens` into `sequence` at `position` on, in the next batch, and returns the
    /// logits of the last one when `wantsLogits`, with the batch's decode time. At most
    /// `batchSize` tokens.
    ///
    /// Runs on the caller's actor (an `InferenceContext`, on the engine thread), so the wake-up
    /// goes straight to the engine thread's queue in the order `flush` resumes the callers,
    /// with no hop through the global pool that would let a flush overtake them.
    func decode(_ tokens: ArraySlice<Token>, sequence: Int32, position: Int, wantsLogits: Bool,
                isolation: isolated (any Actor)? = #isolation) async throws(LocalModelError) -> Decoded {
        precondition(tokens.count <= batchSize && !tokens.isEmpty, "a decode request of \(tokens.count) tokens; at most \(batchSize)")
        let result = await withCheckedContinuation { continuation in
            let request = Request(tokens: tokens, sequence: sequence, position: position, wantsLogits: wantsLogits, continuation: continuation)
            let post = state.withLock { state in
                state.pending.append(request)
                defer { state.flushPosted = true }
                return !state.flushPosted
            }
            if post { EngineThread.shared.post { [self] in flush() } }
        }
        return try result.get()
    }

    /// Decodes the queued requests that fit one batch, in order, and wakes their callers; posts
    /// the next flush when some are left.
    private func flush() {
        let taken = state.withLock { state in
            state.flushPosted = false
            var room = batch.capacity
            var taken: [Request] = []
            state.pending.removeAll { request in
                guard request.tokens.count <= room else { return false }
                room -= request.tokens.count
                taken.append(request)
                return true
            }
            return taken.sorted { $0.sequence < $1.sequence }
        }
        guard !taken.isEmpty else { return }
        let outcome = Result { () throws(LocalModelError) -> [Decoded] in
            // ggml never returns from a lost server: its report wakes the callers from beside it
            try RPCServerLoss.watching(servers: handle.model.rpcServers, report: { [self] error in finish(taken, with: .failure(error)) }) {
                () throws(LocalModelError) -> [Decoded] in try decode(taken)
            }
        }
        finish(taken, with: outcome)
    }

    private func decode(_ requests: [Request]) throws(LocalModelError) -> [Decoded] {
        batch.clear()
        var outputs: [Int?] = []
        for request in requests {
            for (offset, token) in request.tokens.enumerated() {
                let last = offset == request.tokens.count - 1
                batch.add(token, position: request.position + offset, sequence: request.sequence, output: last && request.wantsLogits)
            }
            outputs.append(request.wantsLogits ? batch.count - 1 : nil)
        }
        var status: Int32 = 0
        // to the end of the computation, which a backend other than the CPU's may finish later
        let duration = ContinuousClock().measure {
            status = batch.decode(in: handle)
            handle.synchronize()
        }
        if status != 0 { throw .decodeFailed(code: status, position: requests[0].position) }
        return try outputs.map { index throws(LocalModelError) -> Decoded in
            guard let index else { return Decoded(logits: nil, duration: duration) }
            guard let logits = handle.logits(at: index) else { throw Self.missingLogits }
            return Decoded(logits: logits, duration: duration)
        }
    }

    /// Wakes each of `requests`' callers with its share of `outcome`, then posts a flush for
    /// what is still queued.
    private func finish(_ requests: [Request], with outcome: Result<[Decoded], LocalModelError>) {
        for (index, request) in requests.enumerated() {
            request.continuation.resume(returning: outcome.map { $0[index] }.mapError { error in
                guard case .decodeFailed(let code, _) = error else { return error }
                return .decodeFailed(code: code, position: request.position)
            })
        }
        let post = state.withLock { state in
            defer { if !state.pending.isEmpty { state.flushPosted = true } }
            return !state.pending.isEmpty && !state.flushPosted
        }
        if post { EngineThread.shared.post { [self] in flush() } }
    }
}
