import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A server the bench runs as a child process for the length of a section (llama-server,
/// `ask serve`): its stdout and stderr in a log file that errors quote, registered with
/// `ChildProcesses` so an interrupted run never leaves it running, and stopped by SIGTERM, then
/// SIGKILL after 5 s (llama-server may leave SIGTERM pending while idle).
final class ServerProcess: @unchecked Sendable {
    let name: String
    let logURL: URL
    private let process: Process

    /// Starts `executable`; `environment` entries are laid over the bench's own. `installHint`
    /// says what to do when the program cannot be started.
    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], logURL: URL, installHint: String) throws {
        name = executable.lastPathComponent
        self.logURL = logURL
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw BenchmarkFailure("cannot start \(executable.path) (\(error)); \(installHint)")
        }
        ChildProcesses.shared.register(process.processIdentifier)
    }

    deinit { stop() }

    var isRunning: Bool { process.isRunning }

    /// Everything the server has logged so far.
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// The last lines of the log, for error messages.
    var logTail: String { log.split(separator: "\n").suffix(5).joined(separator: " / ") }

    /// The failure to report when the server is no longer running while the bench waited on
    /// it for `what`; nil while it runs.
    func exitFailure(during what: String) -> BenchmarkFailure? {
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        ChildProcesses.shared.unregister(process.processIdentifier)
        return BenchmarkFailure("\(name) exited with \(process.terminationStatus) during \(what); its log ends: \(logTail)")
    }

    /// Peak resident memory of the server so far (VmHWM), in bytes.
    var peakResidentBytes: Int? { ProcessMemory.peakResidentBytes(pid: process.processIdentifier) }

    func stop() {
        defer { ChildProcesses.shared.unregister(process.processIdentifier) }
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
