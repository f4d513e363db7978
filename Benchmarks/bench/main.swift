import CommandLineArguments
import Foundation
import Lantern
import LocalModel

// `bench`: runs the benchmark sections, prints each table, and updates Benchmarks/RESULTS.md.
// Its command line, with the child modes the sections start (engine-probe, reliability-writer,
// reliability-reader), is BenchmarkArguments (`bench --help`).

let arguments = BenchmarkArguments.parseOrExit()
let mode: BenchmarkArguments.Mode
do {
    mode = try arguments.mode()
} catch {
    FileHandle.standardError.write(Data(error.report(for: BenchmarkArguments.configuration).utf8))
    exit(2)
}
switch mode {
case .reliabilityWriter(let path, let duration):
    exit(await ReliabilityBenchmark.writerMain(path: path, duration: duration))
case .reliabilityReader(let path, let duration):
    exit(await ReliabilityBenchmark.readerMain(path: path, duration: duration))
case .benchmark, .engineProbe:
    break
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let modelURL: URL
do {
    modelURL = try ModelLocator().locate(arguments.model)
} catch {
    FileHandle.standardError.write(Data("bench: error: \(error)\n".utf8))
    exit(2)
}
let environment = BenchmarkEnvironment(
    quick: arguments.quick,
    limit: arguments.limit,
    modelURL: modelURL,
    modelWasChosen: arguments.model != nil,
    threads: arguments.threads ?? LocalModel.Configuration().threads,
    chatTemplate: arguments.chatTemplate,
    placement: arguments.placement,
    workDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("lantern-bench"))

if case .engineProbe = mode {
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
let chosen = arguments.chosenSections
for section in chosen {
    FileHandle.standardError.write(Data("bench: running \(section.rawValue) (load average \(BenchmarkEnvironment.loadAverage))…\n".utf8))
    let start = ContinuousClock.now, loadAtStart = BenchmarkEnvironment.loadAverage
    do {
        var report = try await section.run(environment)
        report.seconds = (ContinuousClock.now - start).seconds
        report.loadAverage = "\(loadAtStart) at the start, \(BenchmarkEnvironment.loadAverage) at the end"
        FileHandle.standardError.write(Data(String(format: "bench: %@ took %.0f s\n", section.rawValue, report.seconds ?? 0).utf8))
        print(ResultsFile.render(report, machine: machine).split(separator: "\n").filter { !$0.hasPrefix("<!--") }.joined(separator: "\n"))
        print()
        reports.append(report)
    } catch {
        FileHandle.standardError.write(Data(String(format: "bench: section %@ failed after %.0f s: %@\n", section.rawValue,
                                                   (ContinuousClock.now - start).seconds, String(describing: error)).utf8))
    }
}
FileHandle.standardError.write(Data(String(format: "bench: %d sections in %.0f s\n", reports.count, (ContinuousClock.now - runStart).seconds).utf8))
try ResultsFile(url: packageRoot.appendingPathComponent("Benchmarks/RESULTS.md")).update(with: reports, machine: machine)
if let jsonURL = arguments.json.map({ URL(fileURLWithPath: $0) }) {
    struct Run: Encodable { let machine: [String: String]; let sections: [SectionReport] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // a ratio with no reference (a peer that made no call) is NaN, which JSON cannot hold as a number
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    try encoder.encode(Run(machine: machine, sections: reports)).write(to: jsonURL)
}
exit(reports.count == chosen.count ? 0 : 1)
