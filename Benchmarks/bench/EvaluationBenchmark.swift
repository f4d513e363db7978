import Evaluations
import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// Section "evaluation" (issue 8): the shipped sample evaluation (trails corpus and samples)
/// with the default model, once per guide, through `EvaluationRunner.report` — the function
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
        let files = EvaluationRunner.Files(model: environment.modelURL.path, corpus: SampleData.trailsCorpus.path,
                                           samples: SampleData.trailsSamples.path)

        var rows: [BenchmarkRow] = []
        var table = [
            "| guide | result coverage | answer coverage | grounded | trajectory pass | valid tool calls | median latency | mean tokens (prompt / cached / generated) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for guide in SearchSetup.GuideLevel.allCases {
            let runner = EvaluationRunner(model: model, configuration: .init(guide: guide, now: { today.noon }))
            let report = try await runner.report(corpus: corpus, samples: samples, files: files, today: today.text) { result, done, total in
                let m = result.metrics
                FileHandle.standardError.write(Data(String(format: "bench: evaluation %@ [%d/%d] %@: %.1f s, %d/%d calls valid%@\n",
                                                           guide.rawValue, done, total, result.sampleID, m.latency.total, m.validToolCalls,
                                                           m.toolCalls, result.error.map { " (failed: \($0.prefix(80)))" } ?? "").utf8))
            }
            let a = report.aggregate
            let latency = Sample(report.results.map(\.metrics.latency.total))
            rows.append(BenchmarkRow(metric: "valid tool calls, \(guide.rawValue) guide", ours: 100 * (a.validToolCalls ?? .nan), reference: nil,
                                     unit: "%", goal: 100, higherIsBetter: true, note: "\(a.toolCalls) calls"))
            rows.append(BenchmarkRow(metric: "latency per sample, \(guide.rawValue) guide", ours: latency.median, reference: nil,
                                     unit: "s", goal: nil, higherIsBetter: false, spread: latency.spread))
            table.append("| \(guide.rawValue) | \(Percent(a.resultCoverage)) | \(Percent(a.answerCoverage)) | \(Percent(a.groundedRate)) | "
                + "\(Percent(a.trajectoryPassRate)) | \(Percent(a.validToolCalls)) (\(a.toolCalls) calls) | "
                + String(format: "%.1f s", latency.median) + " | \(a.tokens.prompt) / \(a.tokens.cached) / \(a.tokens.generated) |"
                + (a.failedRuns > 0 ? " \(a.failedRuns) of \(a.runs) runs failed" : ""))
        }
        let which = environment.quick
            ? "\(samples.count) of the \(all.count) samples (--quick: \(quickSampleIDs.joined(separator: ", ")))"
            : "all \(samples.count) samples"
        return SectionReport(
            name: "evaluation", title: "Evaluation: the sample dataset with the default model, per guide",
            reference: "issue 8's metrics; no reference engine. Same code path as `eval --guide GUIDE` (EvaluationRunner.report)",
            rows: rows,
            notes: [
                "\(which) of trails-samples.jsonl over the \(corpus.count)-trail sample corpus, each once, greedy; eval's defaults: "
                    + "structured format, the model's \(model.defaultContextWindow.tokens)-token window, first round `.required`, "
                    + "relative dates as of \(today.text). Valid tool calls: parsed and validated against the tool's schema, "
                    + "pooled over all calls; latency is per sample (all rounds), tokens are means per sample.",
                table.joined(separator: "\n"),
            ])
    }
}
