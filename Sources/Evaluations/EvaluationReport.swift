import Foundation
import SearchIndex

/// An evaluation's outcome: the settings it ran with, every run, and the aggregate. Encodes to
/// the JSON report `eval --report` writes, and renders as the table it prints.
public struct EvaluationReport: Sendable, Hashable, Codable {
    /// What was evaluated, as given on the command line (file names, guide, window, seed).
    public struct Settings: Sendable, Hashable, Codable {
        public var model: String
        public var corpus: String
        public var samples: String
        public var guide: String
        public var format: String
        public var contextWindow: Int
        public var repetitions: Int
        public var seed: UInt32?
        /// The reference date relative dates resolved against, YYYY-MM-DD; nil is the real today.
        public var today: String?
        /// How answers were written: "quote" or "prose" (`--answer auto` resolved for the model).
        public var answerStyle: String
        /// How searches' words found items: "hybrid", "full-text" or "meaning" (`WordsSearch`).
        public var wordsSearch: String
        /// The embedding model the index's vectors were made with; nil for full text only.
        public var embeddingModel: String?

        public init(model: String, corpus: String, samples: String, guide: String, format: String, contextWindow: Int,
                    repetitions: Int, seed: UInt32?, today: String?, answerStyle: String,
                    wordsSearch: String = WordsSearch.hybrid.rawValue, embeddingModel: String? = nil) {
            self.model = model
            self.corpus = corpus
            self.samples = samples
            self.guide = guide
            self.format = format
            self.contextWindow = contextWindow
            self.repetitions = repetitions
            self.seed = seed
            self.today = today
            self.answerStyle = answerStyle
            self.wordsSearch = wordsSearch
            self.embeddingModel = embeddingModel
        }
    }

    public var settings: Settings
    public var results: [SampleResult]
    public var aggregate: AggregateMetrics

    public init(settings: Settings, results: [SampleResult]) {
        self.settings = settings
        self.results = results
        self.aggregate = AggregateMetrics(results)
    }

    /// Pretty, key-sorted JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The per-sample table followed by the aggregate, for a terminal; a passage coverage
    /// column when the samples expect passages.
    public func table() -> String {
        let passages = aggregate.passageCoverage != nil
        let header = ["sample", "result cov"] + (passages ? ["passage cov"] : [])
            + ["answer cov", "cite rel", "grounded", "cite prec", "cited cov", "fidelity", "trajectory", "valid calls", "tools", "time s", "tokens"]
        var rows: [[String]] = results.map { result in
            let m = result.metrics
            let id = settings.repetitions > 1 ? "\(result.sampleID)#\(result.repetition + 1)" : result.sampleID
            return [
                id + (result.error == nil ? "" : " (failed)"),
                Percent(m.resultCoverage).description] + (passages ? [Percent(m.passageCoverage).description] : []) + [
                Percent(m.answerCoverage).description, Percent(m.citationRelevance).description,
                m.grounded.map { $0 ? "yes" : "no" } ?? "–",
                Percent(m.citationPrecision).description, Percent(m.citedExpectedCoverage).description, Percent(m.quoteFidelity).description,
                m.trajectoryPass.map { $0 ? "pass" : "fail" } ?? "–",
                m.toolCalls == 0 ? "–" : "\(m.validToolCalls)/\(m.toolCalls)",
                Self.toolSummary(m.calledTools),
                String(format: "%.1f", m.latency.total),
                "\(m.tokens.prompt)/\(m.tokens.generated)",
            ]
        }
        let a = aggregate
        rows.append(["ALL (\(a.runs) runs)", Percent(a.resultCoverage).description] + (passages ? [Percent(a.passageCoverage).description] : []) + [
                     Percent(a.answerCoverage).description, Percent(a.citationRelevance).description,
                     Percent(a.groundedRate).description, Percent(a.citationPrecision).description,
                     Percent(a.citedExpectedCoverage).description, Percent(a.quoteFidelity).description, Percent(a.trajectoryPassRate).description,
                     Percent(a.validToolCalls).description, "\(a.toolCalls) calls", String(format: "%.1f", a.latency.total),
                     "\(a.tokens.prompt)/\(a.tokens.generated)"])
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        var lines = [line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))]
        lines += rows.dropLast().map(line)
        lines.append(lines[1])
        lines.append(line(rows[rows.count - 1]))
        lines.append(String(format: "mean latency: total %.2f s, retrieval %.2f s, prefill %.2f s, decode %.2f s",
                            a.latency.total, a.latency.retrieval, a.latency.prefill, a.latency.decode))
        lines.append("answers: \(settings.answerStyle); citation precision and quote fidelity are pooled over all markers and quotes, "
                     + "citation relevance (cited sources among the expected items) over all cited sources")
        lines.append("answers that are calls: \(a.answersThatAreCalls ?? 0) of \(a.runs)")
        lines.append("mean tokens: prompt \(a.tokens.prompt), cached \(a.tokens.cached), generated \(a.tokens.generated)"
                     + (a.failedRuns > 0 ? "; \(a.failedRuns) runs failed" : ""))
        return lines.joined(separator: "\n")
    }

    /// Calls in order with repeats folded: `spotlight_search×2,fetch_item`.
    private static func toolSummary(_ tools: [String]) -> String {
        guard !tools.isEmpty else { return "none" }
        var runs: [(String, Int)] = []
        for tool in tools {
            if runs.last?.0 == tool { runs[runs.count - 1].1 += 1 } else { runs.append((tool, 1)) }
        }
        return runs.map { $1 > 1 ? "\($0)×\($1)" : $0 }.joined(separator: ",")
    }
}
