import CommandLineArguments
import Evaluations
import Foundation
import Lantern
import LocalModel
import SearchIndex
import SearchTool

/// Section "evaluation" (issues 8, 24 and 47 §6): the model panel — every installed model of
/// models.lock (SmolLM2-135M, Gemma 3 270M, Qwen2.5-Coder-0.5B and -1.5B Instruct) — each in
/// quote and in prose, on the three shipped sample sets (trails, paraphrases, long documents),
/// through `EvaluationRunner.report`, the function the `eval` command calls, with eval's
/// defaults (the focused guide, structured format, the model's window, greedy, first round
/// `.required`, the default embedding model when installed, relative dates of the trail sets
/// pinned to the day they were written). The automatic answer style is decided from these
/// figures, so both styles run for every model. `--model` runs that model alone; `--limit N`
/// asks the first N samples of each set (a smoke run).
enum EvaluationBenchmark {
    /// The trail samples a `--quick` run asks: one lookup with an expected item, facts and a
    /// trajectory, so every metric applies (a smoke test; the full run gives the figures). The
    /// other sets ask their first sample.
    static let quickSampleIDs = ["lookup-maple-pass"]
    /// The answer styles every model runs in, quote first.
    static let styles: [GenerationOptions.AnswerStyle] = [.quote, .prose]

    /// One shipped sample set: what to index, what to ask, and the day its relative dates mean.
    struct SampleSet {
        let name: String
        let corpus: EvaluationCorpus
        let corpusPath: String
        let samplesURL: URL
        let samples: [EvaluationSample]
        /// How many samples the set has; `samples` may be fewer (`--quick`, `--limit`).
        let total: Int
        let today: ReferenceDay?
    }

    /// One model's run of one set in one style.
    private struct Run {
        let model: String
        let style: GenerationOptions.AnswerStyle
        let set: String
        let report: EvaluationReport
    }

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let sets = try sampleSets(environment)
        let models = environment.modelWasChosen ? [environment.modelURL] : try panel()
        guard !models.isEmpty else { throw BenchmarkFailure("no model of models.lock is installed; run scripts/setup.sh") }
        let embeddingModel = try ModelLocator().locateEmbeddingModel(nil)
        let embedder = try embeddingModel.map { try ModelTextEmbedder(contentsOf: $0, threads: environment.threads) }
        var runs: [Run] = []
        for url in models {
            // `--chat-template` names the layout of the model `--model` chose, not of the panel's others
            var configuration = environment.modelConfiguration
            if !environment.modelWasChosen { configuration.chatTemplate = nil }
            let model = try LocalModel(contentsOf: url, configuration: configuration)
            let name = url.deletingPathExtension().lastPathComponent
            for style in styles {
                for set in sets {
                    runs.append(Run(model: name, style: style, set: set.name,
                                    report: try await evaluate(model, named: name, style: style, set: set, embedder: embedder)))
                }
            }
        }

        var rows: [BenchmarkRow] = []
        var table = [
            "| model | answers | samples | result coverage | answer coverage | grounded | citation precision | citation relevance | cited expected | quote fidelity | answers that are calls | trajectory pass | valid tool calls | median latency | mean tokens (prompt / cached / generated) |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for model in models.map({ $0.deletingPathExtension().lastPathComponent }) {
            var pooled: [GenerationOptions.AnswerStyle: (metrics: AggregateMetrics, latency: Sample)] = [:]
            for style in styles {
                let mine = runs.filter { $0.model == model && $0.style == style }
                for run in mine { table.append(line(run.report.aggregate, latency: latency(of: [run]), model: model, style: style, set: run.set)) }
                let all = AggregateMetrics(mine.flatMap(\.report.results))
                pooled[style] = (all, latency(of: mine))
                if sets.count > 1 { table.append(line(all, latency: latency(of: mine), model: model, style: style, set: "**all sets**")) }
                let label = "\(style.rawValue), \(model)"
                rows.append(BenchmarkRow(metric: "prompt tokens per question, all rounds, \(label)", ours: Double(all.tokens.prompt), reference: nil,
                                         unit: "tokens", goal: EndToEndBenchmark.promptTokensGoal, higherIsBetter: false,
                                         note: "mean per sample over all sets; \(all.tokens.cached) of them cached, \(all.tokens.generated) generated"))
                rows.append(BenchmarkRow(metric: "valid tool calls, \(label)", ours: 100 * (all.validToolCalls ?? .nan), reference: nil,
                                         unit: "%", goal: 100, higherIsBetter: true, note: "\(all.toolCalls) calls"))
                rows.append(BenchmarkRow(metric: "citation precision, \(label)", ours: 100 * (all.citationPrecision ?? 1), reference: nil,
                                         unit: "%", goal: 100, higherIsBetter: true,
                                         note: all.citationPrecision == nil ? "no answer cited" : nil))
                rows.append(BenchmarkRow(metric: "result coverage, \(label)", ours: 100 * (all.resultCoverage ?? .nan), reference: nil,
                                         unit: "%", goal: nil, higherIsBetter: true))
                rows.append(BenchmarkRow(metric: "answers that are calls, \(label)", ours: Double(all.answersThatAreCalls ?? 0), reference: nil,
                                         unit: "answers", goal: 0, higherIsBetter: false, note: "of \(all.runs) runs"))
            }
            guard let quote = pooled[.quote], let prose = pooled[.prose] else { continue }
            let (q, p) = (quote.metrics, prose.metrics)
            rows.append(BenchmarkRow(metric: "grounded, quote (reference: prose), \(model)", ours: 100 * (q.groundedRate ?? .nan),
                                     reference: nil, unit: "%", goal: nil, higherIsBetter: true, note: "prose: \(Percent(p.groundedRate))"))
            rows.append(BenchmarkRow(metric: "answer coverage, quote (reference: prose), \(model)", ours: 100 * (q.answerCoverage ?? .nan),
                                     reference: nil, unit: "%", goal: nil, higherIsBetter: true, note: "prose: \(Percent(p.answerCoverage))"))
            rows.append(BenchmarkRow(metric: "quote fidelity, quote, \(model)", ours: 100 * (q.quoteFidelity ?? .nan), reference: nil,
                                     unit: "%", goal: 100, higherIsBetter: true))
            rows.append(BenchmarkRow(metric: "median latency, quote vs prose, \(model)", ours: quote.latency.median,
                                     reference: prose.latency.median, unit: "s", goal: nil, higherIsBetter: false,
                                     note: "generated tokens per sample \(q.tokens.generated) vs \(p.tokens.generated)"))
        }

        let asked = sets.map { "\($0.name) \($0.samples.count) of \($0.total)" }.joined(separator: ", ")
        return SectionReport(
            name: "evaluation", title: "Evaluation: the model panel in quote and prose on the trails, paraphrase and long-document samples",
            reference: "issues 8, 24 and 47's metrics; no reference engine, each model's prose answers are the reference of its quoted ones. Same code path as `eval --samples SET --answer STYLE --model MODEL` (EvaluationRunner.report)",
            rows: rows,
            notes: [
                "Models: \(models.map(\.lastPathComponent).joined(separator: ", "))"
                    + (environment.modelWasChosen ? " (--model)" : " (every installed model of models.lock)") + ". "
                    + "Samples asked: \(asked)" + (environment.limit.map { " (--limit \($0): a smoke run, not figures)" } ?? (environment.quick ? " (--quick)" : "")) + ". "
                    + "Each sample once, greedy; eval's defaults: the focused guide, structured format, the model's own window, "
                    + "first round `.required`, "
                    + (embeddingModel.map { "vectors by \($0.lastPathComponent) (hybrid words and meaning search); " } ?? "no embedding model installed, so full-text search only (the paraphrases need meaning search); ")
                    + "the trail and paraphrase sets over the \(SampleData.trailsCorpus.lastPathComponent) corpus with relative dates as of "
                    + "\(SampleData.trailsSamplesToday), the long-document set over its folder of PDFs and Markdown files. "
                    + "Auto is quote below \(GenerationOptions.AnswerStyle.quoteParameterLimit / 1_000_000) M parameters. "
                    + "Valid tool calls: parsed and validated against the tool's schema, pooled over all calls; latency is per sample "
                    + "(all rounds), tokens are means per sample. Citation precision: markers `[…]` in the answers that name a source "
                    + "the response showed, over all markers; cited expected: share of the expected items cited with a marker; quote "
                    + "fidelity: text before a marker found verbatim in the retrieved text (both pooled, read from the answers, not from "
                    + "the session); citation relevance: cited sources among the sample's expected items, over all cited sources; "
                    + "answers that are calls: runs whose answer is a tool call written as text (issue 47 §2). The rows pool each model's three sets per style.",
                table.joined(separator: "\n"),
            ])
    }

    /// One model on one set in one style, with a progress line per sample on stderr.
    static func evaluate(_ model: LocalModel, named name: String, style: GenerationOptions.AnswerStyle, set: SampleSet,
                                 embedder: ModelTextEmbedder?) async throws -> EvaluationReport {
        let files = EvaluationRunner.Files(model: model.url.path, corpus: set.corpusPath, samples: set.samplesURL.path)
        let runner = EvaluationRunner(model: model, configuration: .init(answerStyle: style, embedder: embedder,
                                                                        now: { [now = set.today?.noon] in now ?? Date() }))
        return try await runner.report(corpus: set.corpus, samples: set.samples, files: files, today: set.today?.text) { result, done, total in
            let m = result.metrics
            FileHandle.standardError.write(Data(String(format: "bench: evaluation %@ %@ %@ [%d/%d] %@: %.1f s, %d/%d calls valid%@\n",
                                                       name, style.rawValue, set.name, done, total, result.sampleID,
                                                       m.latency.total, m.validToolCalls, m.toolCalls,
                                                       result.error.map { " (failed: \($0.prefix(80)))" } ?? "").utf8))
        }
    }

    /// One line of the table.
    private static func line(_ a: AggregateMetrics, latency: Sample, model: String, style: GenerationOptions.AnswerStyle, set: String) -> String {
        "| \(model) | \(style.rawValue) | \(set) | "
            + "\(Percent(a.resultCoverage)) | \(Percent(a.answerCoverage)) | \(Percent(a.groundedRate)) | "
            + "\(Percent(a.citationPrecision)) | \(Percent(a.citationRelevance)) | \(Percent(a.citedExpectedCoverage)) | \(Percent(a.quoteFidelity)) | "
            + "\(a.answersThatAreCalls ?? 0) of \(a.runs) | \(Percent(a.trajectoryPassRate)) | \(Percent(a.validToolCalls)) (\(a.toolCalls) calls) | "
            + String(format: "%.1f s", latency.median) + " | \(a.tokens.prompt) / \(a.tokens.cached) / \(a.tokens.generated) |"
            + (a.failedRuns > 0 ? " \(a.failedRuns) of \(a.runs) runs failed" : "")
    }

    private static func latency(of runs: [Run]) -> Sample {
        Sample(runs.flatMap(\.report.results).map(\.metrics.latency.total))
    }

    /// The three shipped sets, each cut to what the run asks (`--limit`, `--quick`).
    static func sampleSets(_ environment: BenchmarkEnvironment) throws -> [SampleSet] {
        guard let trailsDay = ReferenceDay(SampleData.trailsSamplesToday) else {
            throw BenchmarkFailure("SampleData.trailsSamplesToday (\(SampleData.trailsSamplesToday)) is not a YYYY-MM-DD day")
        }
        let trails = EvaluationCorpus.items(try CorpusReader().items(contentsOf: SampleData.trailsCorpus))
        let sources: [(name: String, corpus: EvaluationCorpus, corpusPath: String, samples: URL, today: ReferenceDay?)] = [
            ("trails", trails, SampleData.trailsCorpus.path, SampleData.trailsSamples, trailsDay),
            ("paraphrases", trails, SampleData.trailsCorpus.path, SampleData.paraphraseSamples, trailsDay),
            ("long-documents", .folder(SampleData.longDocuments), SampleData.longDocuments.path, SampleData.longDocumentSamples, nil),
        ]
        return try sources.map { source in
            let all = try SampleReader().samples(contentsOf: source.samples)
            let quick = source.name == "trails" ? all.filter { quickSampleIDs.contains($0.id) } : Array(all.prefix(1))
            let samples = environment.chosen(all, quick: quick)
            guard !samples.isEmpty else { throw BenchmarkFailure("\(source.samples.lastPathComponent) has none of the samples the section asks") }
            return SampleSet(name: source.name, corpus: source.corpus, corpusPath: source.corpusPath, samplesURL: source.samples,
                             samples: samples, total: all.count, today: source.today)
        }
    }

    /// The panel: every installed model of models.lock, in its order.
    static func panel() throws -> [URL] {
        guard let catalog = try ModelCatalog.locate() else { return [] }
        return catalog.models.map { catalog.modelsDirectory.appendingPathComponent($0.file) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The installed models of models.lock other than `url` (the one the run is about).
    static func otherInstalledModels(than url: URL) throws -> [URL] {
        try panel().filter { $0.lastPathComponent != url.lastPathComponent }
    }
}
