import Foundation
import RemoteModel

/// Debian's `llama-server` on a free loopback port, for the tests that need the real server
/// (the remote model's, `ask --server`'s).
///
/// The server runs under a shell that kills it when its standard input reaches end of file,
/// and that input is a pipe only this process writes to: when the test process ends, however
/// it ends, the server ends with it and its log folder is removed (no teardown hook needed, none
/// missed after a crash). `stop()` ends it sooner.
public final class LlamaServerProcess: @unchecked Sendable {
    // @unchecked: the stored properties never change after `init`; `Process` and `FileHandle`
    // are only asked thread-safe things (wait, close, kill).

    /// `http://127.0.0.1:PORT`.
    public let url: URL
    /// The server's stdout and stderr.
    public let logURL: URL
    private let process: Process
    /// The write end of the server's lifeline: the server ends when it closes.
    private let lifeline: FileHandle

    /// How long loading the model may take.
    public static let startupTimeout: Duration = .seconds(120)
    public static let executable = URL(fileURLWithPath: "/usr/bin/llama-server")

    /// Starts the server on `model` with one slot of `context` tokens and `arguments` after the
    /// others (`--api-key KEY`, `--metrics`), and waits until /health answers 200.
    public init(model: URL, context: Int = 2048, threads: Int = 1, arguments: [String] = []) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-llama-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        logURL = folder.appendingPathComponent("llama-server.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        let pipe = Pipe()
        lifeline = pipe.fileHandleForWriting
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // a background reader of the pipe kills the shell's process at end of file and removes
        // the folder; the shell becomes the server (same process id)
        let script = #"exec 3<&0; folder=$1; shift; (read _ <&3; kill -KILL $$ 2>/dev/null; rm -rf "$folder") </dev/null & exec "$@" </dev/null"#
        process.arguments = ["-c", script, "sh", folder.path, Self.executable.path, "-m", model.path, "--host", "127.0.0.1", "--port", "0",
                             "-t", String(threads), "-c", String(context), "-np", "1", "--no-webui"] + arguments
        process.standardInput = pipe
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try? pipe.fileHandleForReading.close()

        let deadline = ContinuousClock.now + Self.startupTimeout
        var port: Int?
        while ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if port == nil, let range = text.range(of: "listening on http://127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            if let port, let url = URL(string: "http://127.0.0.1:\(port)"),
               (try? await HTTPClient.send(.get(url.appendingPathComponent("health")), timeout: .seconds(5)))?.status == 200 {
                self.url = url
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        try? lifeline.close()
        throw LlamaServerProcessError(message: "llama-server did not answer /health within \(Self.startupTimeout); its log:\n\(text.suffix(3000))")
    }

    /// The last lines of the server's log, for a failing test's message.
    public var logTail: String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(8).joined(separator: "\n")
    }

    /// Ends the server now (closing its lifeline) and waits for it.
    public func stop() {
        try? lifeline.close()
        process.waitUntilExit()
    }

    deinit { stop() }
}

public struct LlamaServerProcessError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
