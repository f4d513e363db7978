import Foundation

/// `ask serve` started by a test as a child process: its stderr collected on a thread of its
/// own, its URL read from the "listening on" line, and stopped when the test drops it. The
/// tests that drive it with the real `openai` client share it.
final class ServeProcess {
    let process: Process
    private let log = OutputCollector()

    /// Starts `ask` with `arguments` (which begin with `serve`).
    init(_ ask: AskProcess, _ arguments: [String]) throws {
        process = ask.process(arguments)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let log = log
        Thread.detachNewThread {
            while true {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                log.append(data, isError: true)
            }
        }
    }

    deinit { stop() }

    /// Everything the server wrote on stderr so far: the listening line, one line per request.
    var stderr: String { log.texts.1 }

    /// The URL from the server's "listening on" line, or nil when it exited or took over ten
    /// minutes (building the index and loading the model come first). It waits by sleeping the
    /// task, not the thread: a cooperative thread held while the server starts is one the
    /// other tests running beside it lack.
    func listeningURL() async -> String? {
        let deadline = Date().addingTimeInterval(600)
        while process.isRunning && Date() < deadline {
            let text = stderr
            if let start = text.range(of: "listening on ")?.upperBound, let end = text[start...].firstIndex(of: "\n") {
                return String(text[start..<end])
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Sends SIGTERM and waits for the exit.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
