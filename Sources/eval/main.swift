import CommandLineArguments
import Evaluations
import Foundation
import Lantern
import LocalModel
import SearchIndex
import SearchTool

/// `eval`: measures how well a model answers from a corpus with the search tool. Thin: parses
/// the flags, reads the files, runs `EvaluationRunner`, prints and writes the report.

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("eval: \(message)\n".utf8))
    exit(code)
}

let arguments = EvalArguments.parseOrExit()

/// Writes a report's JSON to `--report`, when given.
func writeReport(_ data: () throws -> Data) {
    guard let url = arguments.reportURL else { return }
    do {
        try data().write(to: url)
    } catch {
        fail("cannot write the report to \(url.path): \(error.localizedDescription); check the folder exists and is writable")
    }
}

if let callsURL = arguments.callsURL {
    let model: LocalModel
    let cases: [FunctionCallCase]
    do {
        let url = try ModelLocator().locate(arguments.model)
        cases = try FunctionCallCaseReader().cases(contentsOf: callsURL)
        model = try LocalModel(contentsOf: url, configuration: arguments.modelConfiguration)
    } catch {
        fail("\(error)")
    }
    FileHandle.standardError.write(Data("eval: \(cases.count) function-calling cases from \(callsURL.lastPathComponent), model \(model.url.lastPathComponent)\n".utf8))
    let evaluation = FunctionCallEvaluation(model: model, configuration: .init(seed: arguments.seed, contextWindow: arguments.context))
    let report = await evaluation.run(cases) { result, done, total in
        FileHandle.standardError.write(Data("[\(done)/\(total)] \(result.caseID)\n".utf8))
    }
    print(report.table())
    writeReport { try report.jsonData() }
    exit(0)
}
let day = arguments.referenceDay

let modelURL: URL
let corpus: EvaluationCorpus
let samples: [EvaluationSample]
let model: LocalModel
let embeddingModelURL: URL?
let embedder: ModelTextEmbedder?
do {
    modelURL = try ModelLocator().locate(arguments.model)
    embeddingModelURL = try ModelLocator().locateEmbeddingModel(arguments.embeddingModel)
    embedder = try embeddingModelURL.map { try ModelTextEmbedder(contentsOf: $0, threads: arguments.threads) }
    corpus = try arguments.corpusSource.corpus ?? .items(CorpusReader().items(contentsOf: arguments.corpusURL))
    samples = try SampleReader().samples(contentsOf: arguments.samplesURL)
    model = try LocalModel(contentsOf: modelURL, configuration: arguments.modelConfiguration)
} catch {
    fail("\(error)")
}

let runner = EvaluationRunner(model: model, configuration: .init(
    guide: arguments.guide.level, format: arguments.guide.format, contextWindow: arguments.context,
    repetitions: arguments.repetitions, seed: arguments.seed, answerStyle: arguments.answerStyle,
    embedder: embedder, wordsSearch: arguments.wordsSearch, now: { [now = day?.noon] in now ?? Date() }))
let corpusDescription: String = switch corpus {
case .items(let items): "\(items.count) items"
case .folder(let folder): "the folder \(folder.path)"
}
FileHandle.standardError.write(Data("eval: \(samples.count) samples × \(arguments.repetitions) over \(corpusDescription), guide \(arguments.guide.level.rawValue), words search \(arguments.wordsSearch.rawValue)\(embeddingModelURL.map { " (vectors by \($0.lastPathComponent))" } ?? " (no vectors)")\(day.map { ", today \($0.text)" } ?? ""), model \(modelURL.lastPathComponent)\n".utf8))

let report: EvaluationReport
do {
    report = try await runner.report(
        corpus: corpus, samples: samples,
        files: .init(model: modelURL.path, corpus: arguments.corpusSource.path, samples: arguments.samplesURL.path),
        today: day?.text) { result, done, total in
        FileHandle.standardError.write(Data("[\(done)/\(total)] \(ProgressLine(result))\n".utf8))
    }
} catch {
    fail("\(error)")
}
print(report.table())

writeReport { try report.jsonData() }

let misses = arguments.thresholds.misses(report.aggregate)
if !misses.isEmpty {
    fail("threshold missed: " + misses.joined(separator: "; "), code: 1)
}
