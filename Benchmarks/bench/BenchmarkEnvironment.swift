import CommandLineArguments
import Foundation
import LocalModel
import Synchronization

/// What every section needs: the options, the model, and a description of the machine so that
/// results can be compared across runs.
struct BenchmarkEnvironment: Sendable {
    var quick: Bool
    /// `--limit`: the most questions a section asks of one sample set.
    var limit: Int?
    var modelURL: URL
    /// Whether `--model` named the model: the evaluation section then runs that model alone
    /// instead of the whole panel.
    var modelWasChosen: Bool
    var threads: Int
    /// `--chat-template`, for models whose file names no layout.
    var chatTemplate: String?
    /// `--gpu-layers`, `--rpc`, `--tensor-split`: where the sections' model runs.
    var placement: PlacementOptions
    var workDirectory: URL

    /// The questions a section asks of one sample set: the first `--limit` of `samples`, else
    /// `quickSamples` under `--quick`, else all of them.
    func chosen<Sample>(_ samples: [Sample], quick quickSamples: @autoclosure () -> [Sample]) -> [Sample] {
        if let limit { return Array(samples.prefix(limit)) }
        return quick ? quickSamples() : samples
    }

    /// How every section loads the model: the run's threads, chat layout and placement.
    var modelConfiguration: LocalModel.Configuration {
        var configuration = LocalModel.Configuration(threads: threads, chatTemplate: chatTemplate)
        placement.apply(to: &configuration)
        return configuration
    }

    /// Cores, CPU model, the model file and its sha256, the llama.cpp package version and the
    /// date: the line every section's results carry. Computed once per run (hashing the model
    /// reads the whole file).
    var machine: [String: String] {
        [
            "cores": String(ProcessInfo.processInfo.activeProcessorCount),
            "cpu": Self.cpuModel,
            "model": modelURL.lastPathComponent,
            "modelSHA256": Self.sha256(of: modelURL),
            "llama.cpp": (try? Self.run("/usr/bin/dpkg-query", ["-W", "-f=${Version}", "libllama0"])) ?? "unknown (dpkg-query found no libllama0)",
            "date": ISO8601DateFormatter().string(from: Date()),
        ]
    }

    static var cpuModel: String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
    }

    /// The release `ask` beside this bench binary, which the sections that run it as a user
    /// does (memory, reliability, warm start) start as a child process.
    static func askBinary() throws -> URL {
        guard let ask = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("ask"),
              FileManager.default.isExecutableFile(atPath: ask.path) else {
            throw BenchmarkFailure("no ask binary beside bench; build it with swift build -c release --product ask")
        }
        return ask
    }

    /// The model's sha256, or why there is none (a missing file or a broken symlink is the usual
    /// cause of "unknown": the worktree's models/ folder lacks the model).
    static func sha256(of url: URL) -> String {
        guard FileManager.default.fileExists(atPath: url.path) else { return "missing (no file at \(url.path))" }
        do {
            return try run("/usr/bin/sha256sum", [url.path], timeout: 120).split(separator: " ").first.map(String.init) ?? "unreadable"
        } catch {
            return "unknown (\(error))"
        }
    }

    /// The 1-, 5- and 15-minute load averages, to record how busy the machine was while a
    /// section ran (llama.cpp busy-waits, so other work slows it unevenly).
    static var loadAverage: String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// Runs a program to completion and returns its standard output; throws on a non-zero exit,
    /// and kills the program and throws when it has not finished within `timeout` seconds.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 600) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        ChildProcesses.shared.register(pid)
        defer { ChildProcesses.shared.unregister(pid) }
        let timedOut = Atomic<Bool>(false)
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + timeout)
        timer.setEventHandler {
            timedOut.store(true, ordering: .sequentiallyConsistent)
            kill(pid, SIGKILL)
        }
        timer.resume()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        let command = "\(executable) \(arguments.joined(separator: " "))"
        if timedOut.load(ordering: .sequentiallyConsistent) {
            throw BenchmarkFailure("\(command) did not finish within \(Int(timeout)) s and was killed")
        }
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("\(command) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The processes the harness started and has not yet reaped, so that an interrupted run
/// (Ctrl-C, SIGTERM) kills them instead of leaving llama-server instances running.
final class ChildProcesses: Sendable {
    static let shared = ChildProcesses()
    private let running = Mutex<Set<pid_t>>([])

    func register(_ pid: pid_t) { running.withLock { _ = $0.insert(pid) } }
    func unregister(_ pid: pid_t) { running.withLock { _ = $0.remove(pid) } }

    /// SIGKILLs every child still registered (llama-server may ignore SIGTERM while idle).
    func killAll() {
        for pid in running.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}

/// Runs `operation`, cancelling it when it has not finished within `seconds`, and then throws
/// a failure that names `what`. The operation must stop when cancelled (Lantern's sessions do).
func withDeadline<T: Sendable>(seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw BenchmarkFailure("\(what) did not finish within \(Int(seconds)) s and was cancelled")
        }
        return value
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Median and spread of repeated measurements.
struct Sample: Sendable {
    private(set) var values: [Double]

    init(_ values: [Double]) { self.values = values.sorted() }

    var median: Double { percentile(50) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let rank = p / 100 * Double(values.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        return values[low] + (values[high] - values[low]) * (rank - Double(low))
    }

    /// "min–max over N runs", the spread shown beside a median.
    var spread: String {
        guard let first = values.first, let last = values.last else { return "" }
        return String(format: "%.1f–%.1f over %d runs", first, last, values.count)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
