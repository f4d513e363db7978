import Foundation
import RemoteModel

/// Debian's `llama-server` on a free loopback port, for the tests that compare with the real
/// server or talk to it: the template references, the remote model's tests, `ask --server`.
///
/// The server runs under a shell that kills it when its standard input reaches end of file,
/// and that input is a pipe only this process writes to: when the test process ends, however
/// it ends, the server ends with it and its folder (log, files the test wrote for it) is
/// removed (no teardown hook needed, none missed after a crash). `stop()` ends it sooner.
public final class LlamaServerProcess: @unchecked Sendable {
    // @unchecked: the stored properties never change after `init`; `Process` and `FileHandle`
    // are only asked thread-safe things (wait, close).

    /// `http://127.0.0.1:PORT`.
    public let url: URL
    /// The server's stdout and stderr.
    public let logURL: URL
    /// Kept so that Foundation reaps the server when it ends.
    private let process: Process
    /// The write end of the server's lifeline: the server ends when it closes.
    private let lifeline: FileHandle

    public static let executable = URL(fileURLWithPath: "/usr/bin/llama-server")

    /// Starts the server on `model` with one slot of `context` tokens and `arguments` after the
    /// others (`--api-key KEY`, `--metrics`, `--jinja`), and waits up to `startupTimeout` until
    /// /health answers 200. `prepare` may write files into the server's folder (removed with
    /// it) and returns the arguments that name them.
    public init(model: URL, context: Int = 2048, threads: Int = 1, arguments: [String] = [], startupTimeout: Duration = .seconds(120),
                prepare: (_ folder: URL) throws -> [String] = { _ in [] }) async throws(LlamaServerProcessError) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-llama-server-\(UUID().uuidString)")
        let logURL = folder.appendingPathComponent("llama-server.log")
        self.logURL = logURL
        func failure(_ reason: String) -> LlamaServerProcessError {
            LlamaServerProcessError(reason: reason, log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
        }
        var extra: [String]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
            extra = try prepare(folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw failure("its files could not be prepared: \(error)")
        }
        let log: FileHandle
        do { log = try FileHandle(forWritingTo: logURL) } catch { throw failure("its log is not writable: \(error)") }
        defer { try? log.close() }
        let pipe = Pipe()
        lifeline = pipe.fileHandleForWriting
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // a background reader of the pipe kills the shell's process at end of file and removes
        // the folder; the shell becomes the server (same process id), so `process` is the server
        let script = #"exec 3<&0; folder=$1; shift; (read _ <&3; kill -KILL $$ 2>/dev/null; rm -rf "$folder") </dev/null & exec "$@" </dev/null"#
        process.arguments = ["-c", script, "sh", folder.path, Self.executable.path, "-m", model.path, "--host", "127.0.0.1", "--port", "0",
                             "-t", String(threads), "-c", String(context), "-np", "1", "--no-webui"] + arguments + extra
        process.standardInput = pipe
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw failure("/bin/sh could not start \(Self.executable.path) (\(error)); install llama.cpp's tools with scripts/setup.sh")
        }
        try? pipe.fileHandleForReading.close()

        let deadline = ContinuousClock.now + startupTimeout
        var port: Int?
        while ContinuousClock.now < deadline {
            guard process.isRunning, !Self.hasEnded(process.processIdentifier) else {
                // the error quotes the log before the lifeline's end removes it
                let error = failure("llama-server exited while starting")
                try? lifeline.close()
                throw error
            }
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if port == nil, let range = text.range(of: "listening on http://127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            if let port, let url = URL(string: "http://127.0.0.1:\(port)"),
               (try? await HTTPClient.send(.get(url.appendingPathComponent("health")), timeout: .seconds(5)))?.status == 200 {
                self.url = url
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let error = failure("llama-server did not answer /health within \(startupTimeout)")
        try? lifeline.close()
        throw error
    }

    /// The last lines of the server's log, for a failing test's message.
    public var logTail: String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(8).joined(separator: "\n")
    }

    /// POSTs `json` to `path` ("/apply-template"): the status and the answer's text.
    public func post(_ path: String, json: String) async throws -> (status: Int, text: String) {
        let target = URL(string: url.absoluteString + path) ?? url
        let (status, body) = try await HTTPClient.send(.post(target, json: Data(json.utf8)), timeout: .seconds(60))
        return (status, String(decoding: body, as: UTF8.self))
    }

    /// Ends the server now (closing its lifeline) and waits for it.
    public func stop() {
        try? lifeline.close()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Whether process `pid` has ended. Under the test runner Foundation may leave an ended
    /// child unreaped for a while (`isRunning` stays true), so its state is read from /proc.
    private static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return true }
        return ["Z", "X"].contains(stat[afterName.upperBound...].prefix(1))
    }
}

/// llama-server did not start: why, and what it printed.
public struct LlamaServerProcessError: Error, CustomStringConvertible {
    public let reason: String
    /// The server's stdout and stderr up to then.
    public let log: String

    public init(reason: String, log: String = "") {
        self.reason = reason
        self.log = log
    }

    public var description: String { log.isEmpty ? reason : "\(reason); its log:\n\(log.suffix(3000))" }
}
