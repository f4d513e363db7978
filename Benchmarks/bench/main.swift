import Foundation

// bench [--quick] [--model FILE] [--threads N] [--section NAME ...] [--json FILE]
// Runs the benchmark sections, prints each table, and updates Benchmarks/RESULTS.md.
// bench engine-probe [--model FILE] [--threads N]: the engine section's child for Lantern's side.
// bench reliability-writer INDEX SECONDS|endless, bench reliability-reader INDEX SECONDS: the
// reliability section's children (see ReliabilityBenchmark).

let sections: [(name: String, run: @Sendable (BenchmarkEnvironment) async throws -> SectionReport)] = [
    ("engine", EngineBenchmark.run),
    ("index", { environment in
        try await IndexBenchmark.run(itemCount: environment.quick ? 100_000 : 1_000_000,
                                     workDirectory: environment.workDirectory.appendingPathComponent("index"))
    }),
    ("grammar", { try await GrammarBenchmark.grammarOverhead($0, repetitions: $0.quick ? 3 : 7) }),
    ("prefix-cache", { try await GrammarBenchmark.prefixCache($0, repetitions: $0.quick ? 2 : 5) }),
    ("searchtool", SearchToolBenchmark.run),
    ("vision", VisionBenchmark.run),
    ("e2e", EndToEndBenchmark.run),
    ("memory", MemoryBenchmark.run),
    ("evaluation", EvaluationBenchmark.run),
    ("reliability", ReliabilityBenchmark.run),
]

let usage = """
    usage: bench [--quick] [--model FILE] [--threads N] [--section NAME ...] [--json FILE]
    sections: \(sections.map(\.name).joined(separator: ", "))
    """

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
var environment = BenchmarkEnvironment(
    quick: false,
    modelURL: packageRoot.appendingPathComponent("models/SmolLM2-135M-Instruct.Q4_1.gguf"),
    threads: ProcessInfo.processInfo.activeProcessorCount,
    workDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("lantern-bench"))
var chosen: [String] = []
var jsonURL: URL?
var engineProbe = false

if CommandLine.arguments.count == 4, ["reliability-writer", "reliability-reader"].contains(CommandLine.arguments[1]) {
    let (path, duration) = (CommandLine.arguments[2], CommandLine.arguments[3])
    exit(CommandLine.arguments[1] == "reliability-writer" ? await ReliabilityBenchmark.writerMain(path: path, duration: duration)
                                                         : await ReliabilityBenchmark.readerMain(path: path, duration: duration))
}

var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(for flag: String) -> String {
    guard let next = arguments.popFirst() else {
        FileHandle.standardError.write(Data("bench: \(flag) needs a value\n\(usage)\n".utf8))
        exit(2)
    }
    return next
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": environment.quick = true
    case "engine-probe": engineProbe = true
    case "--model": environment.modelURL = URL(fileURLWithPath: value(for: argument))
    case "--threads": environment.threads = Int(value(for: argument)) ?? environment.threads
    case "--section": chosen.append(value(for: argument))
    case "--json": jsonURL = URL(fileURLWithPath: value(for: argument))
    case "-h", "--help": print(usage); exit(0)
    default:
        FileHandle.standardError.write(Data("bench: unknown option \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}
if let unknown = chosen.first(where: { name in !sections.contains { $0.name == name } }) {
    FileHandle.standardError.write(Data("bench: no section named \(unknown)\n\(usage)\n".utf8))
    exit(2)
}

if engineProbe {
    let speed = try await EngineBenchmark.probe(model: environment.modelURL, threads: environment.threads)
    print(String(decoding: try JSONEncoder().encode(speed), as: UTF8.self))
    exit(0)
}

// An interrupted run kills the servers and tools it started instead of leaving them running.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let interruptions = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler {
        FileHandle.standardError.write(Data("bench: interrupted; stopping the processes it started\n".utf8))
        ChildProcesses.shared.killAll()
        exit(130)
    }
    source.resume()
    return source
}

try FileManager.default.createDirectory(at: environment.workDirectory, withIntermediateDirectories: true)
let machine = environment.machine
var reports: [SectionReport] = []
let runStart = ContinuousClock.now
for section in sections where chosen.isEmpty || chosen.contains(section.name) {
    FileHandle.standardError.write(Data("bench: running \(section.name) (load average \(BenchmarkEnvironment.loadAverage))…\n".utf8))
    let start = ContinuousClock.now, loadAtStart = BenchmarkEnvironment.loadAverage
    do {
        var report = try await section.run(environment)
        report.seconds = (ContinuousClock.now - start).seconds
        report.loadAverage = "\(loadAtStart) at the start, \(BenchmarkEnvironment.loadAverage) at the end"
        FileHandle.standardError.write(Data(String(format: "bench: %@ took %.0f s\n", section.name, report.seconds ?? 0).utf8))
        print(ResultsFile.render(report, machine: machine).split(separator: "\n").filter { !$0.hasPrefix("<!--") }.joined(separator: "\n"))
        print()
        reports.append(report)
    } catch {
        FileHandle.standardError.write(Data(String(format: "bench: section %@ failed after %.0f s: %@\n", section.name,
                                                   (ContinuousClock.now - start).seconds, String(describing: error)).utf8))
    }
}
FileHandle.standardError.write(Data(String(format: "bench: %d sections in %.0f s\n", reports.count, (ContinuousClock.now - runStart).seconds).utf8))
try ResultsFile(url: packageRoot.appendingPathComponent("Benchmarks/RESULTS.md")).update(with: reports, machine: machine)
if let jsonURL {
    struct Run: Encodable { let machine: [String: String]; let sections: [SectionReport] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // a ratio with no reference (a peer that made no call) is NaN, which JSON cannot hold as a number
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    try encoder.encode(Run(machine: machine, sections: reports)).write(to: jsonURL)
}
exit(reports.count == (chosen.isEmpty ? sections.count : chosen.count) ? 0 : 1)
