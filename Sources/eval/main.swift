import CommandLineArguments
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

let arguments = EvalArguments.parseOrExit()
let day = arguments.referenceDay

let modelURL: URL
let corpus: [SearchableItem]
let samples: [EvaluationSample]
let model: LocalModel
do {
    modelURL = try ModelLocator().locate(arguments.model)
    corpus = try CorpusReader().items(contentsOf: arguments.corpusURL)
    samples = try SampleReader().samples(contentsOf: arguments.samplesURL)
    model = try LocalModel(contentsOf: modelURL, configuration: .init(chatTemplate: arguments.chatTemplate))
} catch {
    fail("\(error)")
}

let runner = EvaluationRunner(model: model, configuration: .init(
    guide: arguments.guide.level, format: arguments.guide.format, contextWindow: arguments.context,
    repetitions: arguments.repetitions, seed: arguments.seed, now: { [now = day?.noon] in now ?? Date() }))
FileHandle.standardError.write(Data("eval: \(samples.count) samples × \(arguments.repetitions) over \(corpus.count) items, guide \(arguments.guide.level.rawValue)\(day.map { ", today \($0.text)" } ?? ""), model \(modelURL.lastPathComponent)\n".utf8))

let report: EvaluationReport
do {
    report = try await runner.report(
        corpus: corpus, samples: samples,
        files: .init(model: modelURL.path, corpus: arguments.corpusURL.path, samples: arguments.samplesURL.path),
        today: day?.text) { result, done, total in
        FileHandle.standardError.write(Data("[\(done)/\(total)] \(ProgressLine(result))\n".utf8))
    }
} catch {
    fail("\(error)")
}
print(report.table())

if let url = arguments.reportURL {
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
