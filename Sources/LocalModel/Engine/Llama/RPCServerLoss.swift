import CLlama
import Foundation
import Synchronization

/// What happens when an RPC server dies in the middle of a computation.
///
/// ggml's RPC backend has no way to report that: it calls `GGML_ABORT("Remote RPC server
/// crashed ...")`, which runs the abort callback and then ends the process. Lantern's callback
/// comes here first. When the abort comes during a generation that registered itself with
/// `watching`, the generation's stream ends with `.rpcServerDied`, naming the server that no
/// longer accepts connections, a fresh engine thread takes over every other model and
/// context, and the aborting thread parks for good inside ggml (its stack cannot be unwound
/// from here), with the old engine thread waiting on it. The model that used the server refuses further work with the same
/// error; the process, its other models and its indexes go on.
enum RPCServerLoss {
    private struct Watch {
        let model: ObjectIdentifier
        let servers: [RPCServer]
        let report: @Sendable (LocalModelError) -> Void
    }

    private static let current = Mutex<Watch?>(nil)
    private static let lostModels = Mutex<[ObjectIdentifier: LocalModelError]>([:])

    /// Runs `body` (a generation on the engine thread with a model whose layers are on
    /// `servers`) with `report` as the way to end it if one of them dies during it.
    static func watching<T, Failure: Error>(model: LlamaModelHandle, servers: [RPCServer], report: @escaping @Sendable (LocalModelError) -> Void,
                                            _ body: () throws(Failure) -> T) throws(Failure) -> T {
        current.withLock { $0 = Watch(model: ObjectIdentifier(model), servers: servers, report: report) }
        defer { current.withLock { $0 = nil } }
        return try body()
    }

    /// The error a model that lost a server gives for any further work; nil while it is whole.
    static func loss(of model: LlamaModelHandle) -> LocalModelError? {
        lostModels.withLock { $0[ObjectIdentifier(model)] }
    }

    /// Called from ggml's abort callback, on the RPC backend's dispatcher thread (its I/O
    /// thread, which the engine thread waits on). Returns (and the process ends) unless the
    /// abort is a lost RPC server during a watched generation; then never returns.
    static func takeOver(abortMessage: String) {
        guard abortMessage.contains("RPC server"), let watch = current.withLock({ $0 }) else { return }
        let dead = watch.servers.filter { !RPCHandshake.accepts($0, timeout: .seconds(1)) }
        let named = (dead.isEmpty ? watch.servers : dead).map(\.description).joined(separator: ", ")
        let error = LocalModelError.rpcServerDied(server: named)
        lostModels.withLock { $0[watch.model] = error }
        EngineThread.replaceShared()
        watch.report(error)
        while true { pause() }
    }
}
