import CommandLineArguments
import Evaluations
import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// Section "evaluation" (issue 8): the shipped sample evaluation (trails corpus and samples)
/// with the default model, once per guide, and with every other installed model of models.lock
/// (Gemma 3 270M) once with the focused guide, through `EvaluationRunner.report` — the function
/// the `eval` command calls — with eval's defaults (structured format, the model's window, greedy,
/// first round `.required`, relative dates pinned to the day the samples were written).
enum EvaluationBenchmark {
    /// The samples a `--quick` run asks, per guide: one lookup with an expected item, facts and
    /// a trajectory, so every metric applies (a smoke test; the full run gives the figures).
    static let quickSampleIDs = ["lookup-maple-pass"]

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let corpus = try CorpusReader().items(contentsOf: SampleData.trailsCorpus)
        let all = try SampleReader().samples(contentsOf: SampleData.trailsSamples)
        let samples = environment.quick ? all.filter { quickSampleIDs.contains($0.id) } : all
        guard !samples.isEmpty else { throw BenchmarkFailure("trails-samples.jsonl has none of the samples the section asks") }
        guard let today = ReferenceDay(SampleData.trailsSamplesToday) else {
            throw BenchmarkFailure("SampleData.trailsSamplesToday (\(SampleData.trailsSamplesToday)) is not a YYYY-MM-DD day")
        }
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        var rows: [BenchmarkRow] = []
        var table = [
            "| model (layout) | guide | result coverage | answer coverage | grounded | trajectory pass | valid tool calls | median latency | mean tokens (prompt / cached / generated) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        func evaluate(_ model: LocalModel, at url: URL, guide: SearchSetup.GuideLevel, label: String) async throws {
            let files = EvaluationRunner.Files(model: url.path, corpus: SampleData.trailsCorpus.path, samples: SampleData.trailsSamples.path)
            let runner = EvaluationRunner(model: model, configuration: .init(guide: guide, now: { today.noon }))
            let report = try await runner.report(corpus: .items(corpus), samples: samples, files: files, today: today.text) { result, done, total in
                let m = result.metrics
                FileHandle.standardError.write(Data(String(format: "bench: evaluation %@ %@ [%d/%d] %@: %.1f s, %d/%d calls valid%@\n",
                                                           url.lastPathComponent, guide.rawValue, done, total, result.sampleID, m.latency.total,
                                                           m.validToolCalls, m.toolCalls, result.error.map { " (failed: \($0.prefix(80)))" } ?? "").utf8))
            }
            let a = report.aggregate
            let latency = Sample(report.results.map(\.metrics.latency.total))
            rows.append(BenchmarkRow(metric: "valid tool calls, \(label)", ours: 100 * (a.validToolCalls ?? .nan), reference: nil,
                                     unit: "%", goal: 100, higherIsBetter: true, note: "\(a.toolCalls) calls"))
            rows.append(BenchmarkRow(metric: "latency per sample, \(label)", ours: latency.median, reference: nil,
                                     unit: "s", goal: nil, higherIsBetter: false, spread: latency.spread))
            table.append("| \(url.deletingPathExtension().lastPathComponent) (\(model.chatTemplate.name), \(model.chatTemplate.toolLayout.name)) | \(guide.rawValue) | "
                + "\(Percent(a.resultCoverage)) | \(Percent(a.answerCoverage)) | \(Percent(a.groundedRate)) | "
                + "\(Percent(a.trajectoryPassRate)) | \(Percent(a.validToolCalls)) (\(a.toolCalls) calls) | "
                + String(format: "%.1f s", latency.median) + " | \(a.tokens.prompt) / \(a.tokens.cached) / \(a.tokens.generated) |"
                + (a.failedRuns > 0 ? " \(a.failedRuns) of \(a.runs) runs failed" : ""))
        }
        for guide in SearchSetup.GuideLevel.allCases {
            try await evaluate(model, at: environment.modelURL, guide: guide, label: "\(guide.rawValue) guide")
        }
        // every other installed model of models.lock beside it, with the focused guide
        let others = try Self.otherInstalledModels(than: environment.modelURL)
        for url in others {
            let other = try LocalModel(contentsOf: url, configuration: environment.modelConfiguration)
            try await evaluate(other, at: url, guide: .focused, label: "focused guide, \(url.deletingPathExtension().lastPathComponent)")
        }
        let which = environment.quick
            ? "\(samples.count) of the \(all.count) samples (--quick: \(quickSampleIDs.joined(separator: ", ")))"
            : "all \(samples.count) samples"
        return SectionReport(
            name: "evaluation", title: "Evaluation: the sample dataset with the default model per guide, and every other installed model",
            reference: "issue 8's metrics; no reference engine. Same code path as `eval --guide GUIDE` (EvaluationRunner.report)",
            rows: rows,
            notes: [
                "\(which) of trails-samples.jsonl over the \(corpus.count)-trail sample corpus, each once, greedy; eval's defaults: "
                    + "structured format, the model's \(model.defaultContextWindow.tokens)-token window, first round `.required`, "
                    + "relative dates as of \(today.text). Valid tool calls: parsed and validated against the tool's schema, "
                    + "pooled over all calls; latency is per sample (all rounds), tokens are means per sample. "
                    + (others.isEmpty ? "No other model of models.lock is installed." : "The other installed models of models.lock run the focused guide, each in its own chat layout and tool layout."),
                table.joined(separator: "\n"),
            ])
    }

    /// The installed models of models.lock other than `url` (the one the run is about).
    static func otherInstalledModels(than url: URL) throws -> [URL] {
        guard let catalog = try ModelCatalog.locate() else { return [] }
        return catalog.models.map { catalog.modelsDirectory.appendingPathComponent($0.file) }
            .filter { $0.lastPathComponent != url.lastPathComponent && FileManager.default.fileExists(atPath: $0.path) }
    }
}
