import CLlama
import Foundation
import Synchronization

/// ggml's RPC backend (Debian's libggml0-backend-rpc, loaded by `ggml_backend_load_all`):
/// adds servers and hands out their devices, as llama.cpp's `add_rpc_devices` does (the
/// backend's `ggml_backend_rpc_add_server`, looked up through its registry).
enum RPCBackend {
    private typealias AddServer = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?

    /// The server ggml is adding. Adds run one at a time on the engine thread, so one still set
    /// when the next starts died while it was added: ggml's `ggml_backend_rpc_add_server`
    /// holds one lock for the process while it connects, and the thread that holds it waits for
    /// good on the dead server's reply, so every later add would wait too. They are refused.
    private static let beingAdded = Mutex<RPCServer?>(nil)

    /// The devices of `server`, connecting to it the first time (ggml keeps one connection per
    /// endpoint for the process). Throws `.rpcServerUnreachable` when it does not accept a
    /// connection and the handshake in time or the backend is not installed,
    /// `.rpcVersionMismatch` when it speaks another protocol version (`RPCHandshake`),
    /// `.rpcServerDied` when it dies while ggml asks for its devices, or this process lost it
    /// before (ggml would reuse the dead connection).
    static func devices(of server: RPCServer) throws(LocalModelError) -> [OpaquePointer] {
        try withDevices(of: server) { $0 }
    }

    /// The name and memory of each device of `server`, asked as `devices(of:)` asks.
    static func deviceMemory(of server: RPCServer) throws(LocalModelError) -> [(name: String, free: Int, total: Int)] {
        try withDevices(of: server) { devices in
            devices.map { device in
                var free = 0
                var total = 0
                ggml_backend_dev_memory(device, &free, &total)
                return (name(of: device), free, total)
            }
        }
    }

    /// Connects to `server` and runs `body` with its devices, on the engine thread and watched
    /// (`RPCServerLoss`): every question ggml puts to a server can meet it dead, and ggml ends
    /// the process there; on the engine thread that becomes `.rpcServerDied` for the caller.
    private static func withDevices<T>(of server: RPCServer, _ body: @escaping @Sendable ([OpaquePointer]) -> T) throws(LocalModelError) -> T {
        LlamaRuntime.loadBackends()
        guard let registry = ggml_backend_reg_by_name("RPC"),
              let address = ggml_backend_reg_get_proc_address(registry, "ggml_backend_rpc_add_server") else {
            throw .rpcServerUnreachable(server: server.description, reason: "ggml's RPC backend is not installed; run scripts/setup.sh (it installs libggml0-backend-rpc)")
        }
        if let loss = RPCServerLoss.loss(of: [server]) { throw loss }
        switch RPCHandshake.check(server) {
        case .unreachable(let reason): throw .rpcServerUnreachable(server: server.description, reason: reason)
        case .otherVersion(let version): throw .rpcVersionMismatch(server: server.description, serverVersion: version)
        case nil: break
        }
        // ggml writes to a socket whose server has gone; without this the signal ends the
        // process before RPCServerLoss can end the question instead
        signal(SIGPIPE, SIG_IGN)
        let addServer = unsafeBitCast(address, to: AddServer.self)
        return try EngineThread.shared.run { () throws(LocalModelError) -> T in
            if let stuck = beingAdded.withLock({ $0 }) {
                throw .rpcServerUnreachable(server: server.description, reason: "ggml's RPC backend still waits on \(stuck), which died while it was being added, and cannot add another server in this process; start the program again")
            }
            return try RPCServerLoss.watching(servers: [server], report: { _ in }) { () throws(LocalModelError) -> T in
                beingAdded.withLock { $0 = server }
                let (added, log) = LlamaRuntime.capturingLog { addServer(server.description) }
                beingAdded.withLock { $0 = nil }
                guard let added else {
                    throw .rpcServerUnreachable(server: server.description, reason: log.last ?? "ggml could not add it")
                }
                RPCServerLoss.use([server])
                return body((0..<ggml_backend_reg_dev_count(added)).compactMap { ggml_backend_reg_dev_get(added, $0) })
            }
        }
    }

    static func name(of device: OpaquePointer) -> String { String(cString: ggml_backend_dev_name(device)) }

    /// This machine's GPUs, which come before the servers in a model's device list (as in
    /// llama.cpp, where local devices are listed first).
    static var localAcceleratorDevices: [OpaquePointer] {
        LlamaRuntime.loadBackends()
        return (0..<ggml_backend_dev_count()).compactMap { ggml_backend_dev_get($0) }.filter { device in
            let type = ggml_backend_dev_type(device)
            return type == GGML_BACKEND_DEVICE_TYPE_GPU || type == GGML_BACKEND_DEVICE_TYPE_IGPU
        }
    }
}
