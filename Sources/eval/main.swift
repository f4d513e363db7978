import Evaluations
import Foundation
import LocalModel
import SearchIndex

/// `eval`: measures how well a model answers from a corpus with the search tool. Thin: parses
/// the flags, reads the files, runs `EvaluationRunner`, prints and writes the report.

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("eval: \(message)\n".utf8))
    exit(code)
}

let arguments: EvalArguments
do {
    arguments = try EvalArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)\n\n\(EvalArguments.usage)")
}
if arguments.showsHelp {
    print(EvalArguments.usage)
    exit(0)
}

let corpus: [SearchableItem]
let samples: [EvaluationSample]
let model: LocalModel
do {
    corpus = try CorpusReader().items(contentsOf: arguments.corpus)
    samples = try SampleReader().samples(contentsOf: arguments.samples)
    model = try LocalModel(contentsOf: arguments.model)
} catch {
    fail("\(error)")
}

let runner = EvaluationRunner(model: model, configuration: .init(
    guide: arguments.guide, format: arguments.format, contextWindow: arguments.contextWindow,
    repetitions: arguments.repetitions, seed: arguments.seed, now: { [now = arguments.now] in now ?? Date() }))
FileHandle.standardError.write(Data("eval: \(samples.count) samples × \(arguments.repetitions) over \(corpus.count) items, guide \(arguments.guide.rawValue)\(arguments.today.map { ", today \($0)" } ?? ""), model \(arguments.model.lastPathComponent)\n".utf8))

let report: EvaluationReport
do {
    report = try await runner.report(
        corpus: corpus, samples: samples,
        files: .init(model: arguments.model.path, corpus: arguments.corpus.path, samples: arguments.samples.path),
        today: arguments.today) { result, done, total in
        FileHandle.standardError.write(Data("[\(done)/\(total)] \(ProgressLine(result))\n".utf8))
    }
} catch {
    fail("\(error)")
}
print(report.table())

if let url = arguments.report {
    do {
        try report.jsonData().write(to: url)
    } catch {
        fail("cannot write the report to \(url.path): \(error.localizedDescription); check the folder exists and is writable")
    }
}

let misses = arguments.thresholds.misses(report.aggregate)
if !misses.isEmpty {
    fail("threshold missed: " + misses.joined(separator: "; "), code: 1)
}
