import Foundation
import LocalModel
import TestModelSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real `ggml-rpc-server` on 127.0.0.1, on a port free when it starts; stopped by its pid
/// (`stop()`, or at the latest when the value is released).
final class RPCServerProcess: @unchecked Sendable { // the process is only started and stopped
    static let executable = "/usr/libexec/x86_64-linux-gnu/llama/bin/ggml-rpc-server"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let server: RPCServer
    private let process = Process()

    /// Starts the server and waits until it accepts connections.
    init() throws {
        let port = try LoopbackPort.free()
        server = RPCServer(host: "127.0.0.1", port: port)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-H", "127.0.0.1", "-p", String(port), "-t", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // until it listens: each try is a connect, refused at once while the port is closed
        for _ in 0..<600 where process.isRunning {
            if Self.accepts(port: port) { return }
            usleep(50_000)
        }
        stop()
        throw StartFailure(port: port)
    }

    struct StartFailure: Error, CustomStringConvertible {
        let port: Int
        var description: String { "ggml-rpc-server did not start listening on 127.0.0.1:\(port)" }
    }

    var pid: Int32 { process.processIdentifier }

    /// Ends the server at once (SIGKILL: a machine that dies does not say goodbye) and reaps it.
    func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Kills the server, from a thread of its own, once it has spent `ticks` clock ticks
    /// (1/100 s) of CPU from now: in the middle of the computation it was given, however busy
    /// the process that reads the answer is.
    func stop(afterComputing ticks: Int) {
        let start = cpuTicks
        Thread.detachNewThread { [self] in
            while process.isRunning && cpuTicks - start < ticks { usleep(5_000) }
            stop()
        }
    }

    /// User and system time the server has used (fields 14 and 15 of /proc/PID/stat).
    private var cpuTicks: Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ") else { return 0 }
        let fields = stat[afterName.upperBound...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    private static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
