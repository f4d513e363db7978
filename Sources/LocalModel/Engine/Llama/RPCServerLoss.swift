import CLlama
import Foundation
import Synchronization

/// What happens when an RPC server dies while this process talks to it.
///
/// ggml 0.27's RPC backend sends every command (a graph to compute, a tensor to set, a buffer
/// to allocate, clear or free) through one dispatcher thread and makes the calling thread wait
/// for the reply. When a server has gone, that thread calls `GGML_ABORT("Remote RPC server
/// crashed ...")`, whatever the command was: a decode, or the `llama_free` of a model that is
/// released after its server stopped. ggml has no way to report it; the abort callback comes
/// here first, for every such abort, not only during a generation.
///
/// Then: the servers that no longer accept a connection are marked lost, the work that waits
/// on the aborting thread (always on the engine thread, where every RPC command starts) is
/// ended with `.rpcServerDied` (`watching`), a fresh engine thread takes over every other
/// model and context, and the aborting thread parks for good inside ggml (its stack cannot be
/// unwound from here), with the old engine thread waiting on it. Every model on a lost server
/// refuses further work with the same error and its memory is left as it is (freeing it would
/// send commands to the parked thread); the process, its other models and its indexes go on.
enum RPCServerLoss {
    private struct Watch {
        let servers: [RPCServer]
        let report: @Sendable (LocalModelError) -> Void
    }

    private static let current = Mutex<Watch?>(nil)
    private static let inUse = Mutex<Set<RPCServer>>([])
    private static let lost = Mutex<Set<RPCServer>>([])

    /// Records that a model's layers are on `servers`, so a later abort knows whom to check.
    static func use(_ servers: [RPCServer]) {
        inUse.withLock { $0.formUnion(servers) }
    }

    /// Runs `body` (engine-thread work for a model whose layers are on `servers`) with
    /// `report` as the way to end whoever waits on it if one of them dies during it. Throws
    /// the loss instead when one was lost before: checked here, on the engine thread, because
    /// work queued before a loss runs after it, and a command to a lost server would wait on
    /// the parked thread for good.
    static func watching<T>(servers: [RPCServer], report: @escaping @Sendable (LocalModelError) -> Void,
                            _ body: () throws(LocalModelError) -> T) throws(LocalModelError) -> T {
        guard !servers.isEmpty else { return try body() }
        if let loss = loss(of: servers) { throw loss }
        current.withLock { $0 = Watch(servers: servers, report: report) }
        defer { current.withLock { $0 = nil } }
        return try body()
    }

    /// Frees what a model or context holds: at once when nothing of it is on `servers`; on the
    /// engine thread (where a dead server is caught) and without waiting when some is; never
    /// once one of them was lost (the commands would wait on the parked thread for good).
    static func release(on servers: [RPCServer], _ free: @escaping @Sendable () -> Void) {
        guard !servers.isEmpty else { return free() }
        EngineThread.shared.post { try? watching(servers: servers, report: { _ in }, free) }
    }

    /// The error for work on `servers` once one of them was lost; nil while all are whole.
    static func loss(of servers: [RPCServer]) -> LocalModelError? {
        let gone = lost.withLock { lost in servers.filter(lost.contains) }
        return gone.isEmpty ? nil : .rpcServerDied(server: gone.map(\.description).joined(separator: ", "))
    }

    /// Called from ggml's abort callback, on the thread that met the dead server. Returns (and
    /// the process ends) unless the abort is a lost RPC server; then never returns.
    static func takeOver(abortMessage: String) {
        guard abortMessage.contains("RPC server") else { return }
        let watch = current.withLock { watch in
            defer { watch = nil }
            return watch
        }
        let candidates = watch?.servers ?? Array(inUse.withLock { $0 })
        let dead = candidates.filter { !RPCHandshake.accepts($0, timeout: .seconds(1)) }
        let named = dead.isEmpty ? candidates : dead
        lost.withLock { $0.formUnion(named) }
        let error = LocalModelError.rpcServerDied(server: named.map(\.description).joined(separator: ", "))
        if let stuck = EngineThread.replaceShared(abandoning: error) { LlamaRuntime.releaseCapture(heldBy: stuck) }
        watch?.report(error)
        while true { pause() }
    }
}
