import Foundation

/// What every section needs: the options, the model, and a description of the machine so that
/// results can be compared across runs.
struct BenchmarkEnvironment: Sendable {
    var quick: Bool
    var modelURL: URL
    var threads: Int
    var workDirectory: URL

    var machine: [String: String] {
        [
            "cores": String(ProcessInfo.processInfo.activeProcessorCount),
            "cpu": Self.cpuModel,
            "model": modelURL.lastPathComponent,
            "modelSHA256": (try? Self.run("/usr/bin/sha256sum", [modelURL.path]).split(separator: " ").first.map(String.init)) ?? "unknown",
            "llama.cpp": (try? Self.run("/usr/bin/dpkg-query", ["-W", "-f=${Version}", "libllama0"])) ?? "unknown",
            "date": ISO8601DateFormatter().string(from: Date()),
        ]
    }

    static var cpuModel: String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
    }

    /// Runs a program to completion and returns its standard output; throws on a non-zero exit.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
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
