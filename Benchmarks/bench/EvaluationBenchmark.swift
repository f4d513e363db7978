import CommandLineArguments
import Evaluations
import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// Section "evaluation" (issues 8 and 24): the shipped sample evaluation (trails corpus and
/// samples) with the default model and the focused guide once per answer style (prose, quote),
/// and with every other installed model of models.lock (Gemma 3 270M) once in the default
/// answer style (auto), through
/// `EvaluationRunner.report` — the function the `eval` command calls — with eval's defaults
/// (structured format, the model's window, greedy, first round `.required`, relative dates
/// pinned to the day the samples were written).
enum EvaluationBenchmark {
    /// The samples a `--quick` run asks, per guide: one lookup with an expected item, facts and
    /// a trajectory, so every metric applies (a smoke test; the full run gives the figures).
    static let quickSampleIDs = ["lookup-maple-pass"]

    /// One evaluation's figures, for the rows that compare answer styles.
    private struct Run {
        let report: EvaluationReport
        let latency: Sample
    }

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
            "| model (layout) | guide | answers | result coverage | answer coverage | grounded | citation precision | cited expected | quote fidelity | trajectory pass | valid tool calls | median latency | mean tokens (prompt / cached / generated) |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        func evaluate(_ model: LocalModel, at url: URL, guide: SearchSetup.GuideLevel, style: GenerationOptions.AnswerStyle,
                      label: String) async throws -> Run {
            let files = EvaluationRunner.Files(model: url.path, corpus: SampleData.trailsCorpus.path, samples: SampleData.trailsSamples.path)
            let runner = EvaluationRunner(model: model, configuration: .init(guide: guide, answerStyle: style, now: { today.noon }))
            let report = try await runner.report(corpus: .items(corpus), samples: samples, files: files, today: today.text) { result, done, total in
                let m = result.metrics
                FileHandle.standardError.write(Data(String(format: "bench: evaluation %@ %@ %@ [%d/%d] %@: %.1f s, %d/%d calls valid%@\n",
                                                           url.lastPathComponent, guide.rawValue, style.rawValue, done, total, result.sampleID,
                                                           m.latency.total, m.validToolCalls, m.toolCalls,
                                                           result.error.map { " (failed: \($0.prefix(80)))" } ?? "").utf8))
            }
            let a = report.aggregate
            let latency = Sample(report.results.map(\.metrics.latency.total))
            rows.append(BenchmarkRow(metric: "valid tool calls, \(label)", ours: 100 * (a.validToolCalls ?? .nan), reference: nil,
                                     unit: "%", goal: 100, higherIsBetter: true, note: "\(a.toolCalls) calls"))
            rows.append(BenchmarkRow(metric: "citation precision, \(label)", ours: 100 * (a.citationPrecision ?? 1), reference: nil,
                                     unit: "%", goal: 100, higherIsBetter: true,
                                     note: a.citationPrecision == nil ? "no answer cited" : nil))
            rows.append(BenchmarkRow(metric: "latency per sample, \(label)", ours: latency.median, reference: nil,
                                     unit: "s", goal: nil, higherIsBetter: false, spread: latency.spread))
            let answers = report.settings.answerStyle + (style == .automatic ? " (auto)" : "")
            table.append("| \(url.deletingPathExtension().lastPathComponent) (\(model.chatTemplate.name), \(model.chatTemplate.toolLayout.name)) | \(guide.rawValue) | \(answers) | "
                + "\(Percent(a.resultCoverage)) | \(Percent(a.answerCoverage)) | \(Percent(a.groundedRate)) | "
                + "\(Percent(a.citationPrecision)) | \(Percent(a.citedExpectedCoverage)) | \(Percent(a.quoteFidelity)) | "
                + "\(Percent(a.trajectoryPassRate)) | \(Percent(a.validToolCalls)) (\(a.toolCalls) calls) | "
                + String(format: "%.1f s", latency.median) + " | \(a.tokens.prompt) / \(a.tokens.cached) / \(a.tokens.generated) |"
                + (a.failedRuns > 0 ? " \(a.failedRuns) of \(a.runs) runs failed" : ""))
            return Run(report: report, latency: latency)
        }
        /// Quote mode beside prose for one model: the issue's goals as rows.
        func compareStyles(_ model: LocalModel, at url: URL, name: String) async throws {
            let prose = try await evaluate(model, at: url, guide: .focused, style: .prose, label: "focused guide, prose, \(name)")
            let quote = try await evaluate(model, at: url, guide: .focused, style: .quote, label: "focused guide, quote, \(name)")
            let (p, q) = (prose.report.aggregate, quote.report.aggregate)
            rows.append(BenchmarkRow(metric: "grounded, quote (reference: prose), \(name)", ours: 100 * (q.groundedRate ?? .nan),
                                     reference: nil, unit: "%", goal: 50, higherIsBetter: true,
                                     note: "prose: \(Percent(p.groundedRate))"))
            rows.append(BenchmarkRow(metric: "answer coverage, quote (reference: prose), \(name)", ours: 100 * (q.answerCoverage ?? .nan),
                                     reference: nil, unit: "%", goal: 60, higherIsBetter: true,
                                     note: "prose: \(Percent(p.answerCoverage))"))
            rows.append(BenchmarkRow(metric: "quote fidelity, quote, \(name)", ours: 100 * (q.quoteFidelity ?? .nan), reference: nil,
                                     unit: "%", goal: 100, higherIsBetter: true, note: "\(quote.report.results.map(\.metrics.quotes).reduce(0, +)) quotes"))
            rows.append(BenchmarkRow(metric: "median latency, quote vs prose, \(name)", ours: quote.latency.median,
                                     reference: prose.latency.median, unit: "s", goal: 1, higherIsBetter: false,
                                     note: "generated tokens per sample \(q.tokens.generated) vs \(p.tokens.generated)"))
        }
        // one run of the 35 samples takes 10–20 minutes on the shared 2-core machine, so the
        // guides are compared by `eval --guide`, and the other models run the default style only
        try await compareStyles(model, at: environment.modelURL, name: environment.modelURL.deletingPathExtension().lastPathComponent)
        let others = try Self.otherInstalledModels(than: environment.modelURL)
        for url in others {
            let other = try LocalModel(contentsOf: url, configuration: environment.modelConfiguration)
            let name = url.deletingPathExtension().lastPathComponent
            _ = try await evaluate(other, at: url, guide: .focused, style: .automatic, label: "focused guide, auto, \(name)")
        }
        let which = environment.quick
            ? "\(samples.count) of the \(all.count) samples (--quick: \(quickSampleIDs.joined(separator: ", ")))"
            : "all \(samples.count) samples"
        return SectionReport(
            name: "evaluation", title: "Evaluation: the sample dataset with the default model per answer style, and every other installed model",
            reference: "issues 8 and 24's metrics; no reference engine, prose answers are the reference of quoted ones. Same code path as `eval --guide GUIDE --answer STYLE` (EvaluationRunner.report)",
            rows: rows,
            notes: [
                "\(which) of trails-samples.jsonl over the \(corpus.count)-trail sample corpus, each once, greedy; eval's defaults: "
                    + "structured format, the model's \(model.defaultContextWindow.tokens)-token window, first round `.required`, "
                    + "relative dates as of \(today.text). Valid tool calls: parsed and validated against the tool's schema, "
                    + "pooled over all calls; latency is per sample (all rounds), tokens are means per sample. "
                    + "The default model runs once per answer style (prose, quote), the focused guide (the default); the other "
                    + "guides are compared by `eval --guide`. Auto is quote below \(GenerationOptions.AnswerStyle.quoteParameterLimit / 1_000_000) M parameters. "
                    + "Citation precision: markers `[…]` in the answers that name a source the response showed, over all markers; "
                    + "cited expected: share of the expected items cited with a marker; quote fidelity: text before a marker found "
                    + "verbatim in the retrieved text (both pooled, read from the answers, not from the session). "
                    + (others.isEmpty ? "No other model of models.lock is installed." : "The other installed models of models.lock run the focused guide in the default style (auto), each in its own chat layout and tool layout."),
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
