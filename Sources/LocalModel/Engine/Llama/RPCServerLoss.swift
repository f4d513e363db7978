import CLlama
import Foundation
import Synchronization

/// What happens when an RPC server dies in the middle of a computation.
///
/// ggml's RPC backend has no way to report that: it calls `GGML_ABORT("Remote RPC server
/// crashed ...")`, which runs the abort callback and then ends the process. Lantern's callback
/// comes here first. When the abort is on the engine thread during a generation that
/// registered itself with `watch`, the generation's stream ends with `.rpcServerDied`, naming
/// the server that no longer accepts connections, a fresh engine thread takes over every
/// other model and context, and this thread parks for good inside ggml (its stack cannot be
/// unwound from here). The model that used the server refuses further work with the same
/// error; the process, its other models and its indexes go on.
enum RPCServerLoss {
    private struct Watch {
        let model: ObjectIdentifier
        let report: @Sendable (LocalModelError) -> Void
    }

    private static let current = Mutex<Watch?>(nil)
    private static let servers = Mutex<[RPCServer]>([])
    private static let lostModels = Mutex<[ObjectIdentifier: LocalModelError]>([:])

    /// Remembers a server given to ggml, so a loss can be traced to it.
    static func register(_ server: RPCServer) {
        servers.withLock { if !$0.contains(server) { $0.append(server) } }
    }

    /// Runs `body` (a generation on the engine thread) with `report` as the way to end it if a
    /// server dies during it.
    static func watching<T, Failure: Error>(model: LlamaModelHandle, report: @escaping @Sendable (LocalModelError) -> Void,
                                            _ body: () throws(Failure) -> T) throws(Failure) -> T {
        current.withLock { $0 = Watch(model: ObjectIdentifier(model), report: report) }
        defer { current.withLock { $0 = nil } }
        return try body()
    }

    /// The error a model that lost a server gives for any further work; nil while it is whole.
    static func loss(of model: LlamaModelHandle) -> LocalModelError? {
        lostModels.withLock { $0[ObjectIdentifier(model)] }
    }

    /// Called from ggml's abort callback. Returns (and the process ends) unless the abort is a
    /// lost RPC server during a watched generation on the engine thread; then never returns.
    static func takeOver(abortMessage: String) {
        guard abortMessage.contains("RPC server"), EngineThread.shared.isCurrentThread,
              let watch = current.withLock({ $0 }) else { return }
        let known = servers.withLock { $0 }
        let dead = known.filter { RPCReachability.failure(connecting: $0, timeout: .seconds(1)) != nil }
        let named = (dead.isEmpty ? known : dead).map(\.description).joined(separator: ", ")
        let error = LocalModelError.rpcServerDied(server: named)
        lostModels.withLock { $0[watch.model] = error }
        EngineThread.replaceShared()
        watch.report(error)
        while true { pause() }
    }
}
