import Foundation
import Synchronization

/// Runs the built `ask` binary as a child process with an isolated XDG_DATA_HOME and
/// XDG_CACHE_HOME, and collects its exit code and output.
struct AskProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Whether the process ended by an uncaught signal rather than exit().
        let killedBySignal: Bool
    }

    /// The repository root (this file is Tests/askTests/AskProcess.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The `ask` built with this test binary (the test target depends on `ask`), so a build
    /// with `--scratch-path` tests its own `ask`; else the one `swift build` leaves in .build/debug.
    static let binary: URL = {
        let sibling = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("ask")
        if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
        return repository.appendingPathComponent(".build/debug/ask")
    }()
    static let defaultModel = repository.appendingPathComponent("models/SmolLM2-135M-Instruct.Q4_1.gguf")
    /// What the tests that ask the model a question put first: `--model` with the file
    /// $LANTERN_TEST_MODEL names, as every test target that loads a model reads it (scripts/test.sh
    /// runs them again with Qwen2.5-Coder-0.5B this way), or nothing, so that `ask` finds its
    /// default model itself.
    static let modelArguments: [String] = {
        guard let path = ProcessInfo.processInfo.environment["LANTERN_TEST_MODEL"], !path.isEmpty else { return [] }
        return ["--model", path]
    }()

    /// A temporary folder used as XDG_DATA_HOME, removed when the test drops it.
    let dataHome: TemporaryFolder
    var environment: [String: String] = [:]
    /// The program started: `ask` itself, or a wrapper that runs it (see `run(asNobody:)`).
    var executable = Self.binary

    init() throws {
        dataHome = try TemporaryFolder()
    }

    /// XDG_CACHE_HOME of the process, so no test reads or writes the user's prompt cache: by
    /// default one folder for every `ask` the tests start, kept between runs (the cache bounds
    /// its size), so the model file's SHA-256 that names its saved states is read once, not
    /// once per test; a test of the cache itself gives it a folder of its own.
    var cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-ask-tests-cache")

    func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.url.path
        environment["XDG_CACHE_HOME"] = cacheHome.path
        environment.removeValue(forKey: "LANTERN_MODELS_DIR")
        environment.removeValue(forKey: "LANTERN_MODELS_LOCK")
        environment.merge(self.environment) { $1 }
        process.environment = environment
        process.currentDirectoryURL = dataHome.url
        return process
    }

    /// Runs `ask arguments...` to the end (stdin is empty), or until `timeout` seconds have
    /// passed, when it is killed (`killedBySignal`): a test of something that must not hang.
    func run(_ arguments: [String], timeout: Double? = nil, whenOutputStarts: (@Sendable (Process) -> Void)? = nil) throws -> Result {
        let process = process(arguments)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let collected = OutputCollector()
        try process.run()
        // Each pipe is read to its end on a thread of its own, with blocking reads: Foundation's
        // readabilityHandler runs on libdispatch's epoll sources, and clearing one while its pipe
        // closes crashed the test process in _dispatch_event_loop_drain now and then.
        let readers = DispatchGroup()
        for (pipe, isError) in [(output, false), (errors, true)] {
            readers.enter()
            Thread.detachNewThread {
                defer { readers.leave() }
                while true {
                    let data = pipe.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    if collected.append(data, isError: isError), let whenOutputStarts { whenOutputStarts(process) }
                }
            }
        }
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog) }
        process.waitUntilExit()
        watchdog.cancel()
        readers.wait()
        let (stdout, stderr) = collected.texts
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr,
                      killedBySignal: process.terminationReason == .uncaughtSignal)
    }

    /// `run` on a thread of its own, awaited: a test that waits minutes for a child (a client
    /// driving `ask serve`) must not hold one of Swift's cooperative threads, which number the
    /// cores (two here). Held by two such tests at once, they starved every other test, whose
    /// deadlines then passed (eight failures in one suite run).
    func runOffThePool(_ arguments: [String], timeout: Double? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try self.run(arguments, timeout: timeout) }) }
        }
    }
}

/// Output gathered from the pipes' handlers (which run on other threads).
final class OutputCollector: Sendable {
    private let buffers = Mutex<(out: Data, err: Data)>((Data(), Data()))

    /// Appends; returns true the first time stdout receives bytes.
    @discardableResult
    func append(_ data: Data, isError: Bool) -> Bool {
        buffers.withLock { buffers in
            if isError {
                buffers.err.append(data)
                return false
            }
            let first = buffers.out.isEmpty && !data.isEmpty
            buffers.out.append(data)
            return first
        }
    }

    var texts: (String, String) {
        buffers.withLock { (String(decoding: $0.out, as: UTF8.self), String(decoding: $0.err, as: UTF8.self)) }
    }
}

/// A fresh temporary folder, removed when the value is dropped.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-ask-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }
}
