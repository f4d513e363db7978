import Foundation
import SearchIndex
import SearchTool

extension EvaluationRunner {
    /// Where the evaluated data came from, as the report's settings name it.
    public struct Files: Sendable {
        public var model: String
        public var corpus: String
        public var samples: String

        public init(model: String, corpus: String, samples: String) {
            self.model = model
            self.corpus = corpus
            self.samples = samples
        }
    }

    /// Runs `samples` over `corpus` and returns the report with the settings it ran with: what
    /// `eval` prints and writes, and what the benchmark's evaluation section tabulates, so both
    /// measure the same thing.
    ///
    /// - Parameter today: the reference day the configuration's `now` pins, for the report
    ///   (nil when it is the real clock).
    public func report(corpus: EvaluationCorpus, samples: [EvaluationSample], files: Files, today: String?,
                       progress: @Sendable (SampleResult, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) async throws(EvaluationError) -> EvaluationReport {
        let results = try await run(corpus: corpus, samples: samples, progress: progress)
        let settings = EvaluationReport.Settings(
            model: files.model, corpus: files.corpus, samples: files.samples, guide: configuration.guide.rawValue,
            format: configuration.format == .compact ? "compact" : "structured",
            contextWindow: (configuration.contextWindow ?? model.defaultContextWindow).tokens,
            repetitions: configuration.repetitions, seed: configuration.seed, today: today,
            answerStyle: configuration.answerStyle.resolved(parameterCount: model.parameterCount).rawValue,
            wordsSearch: configuration.wordsSearch.rawValue, embeddingModel: configuration.embedder?.identity)
        return EvaluationReport(settings: settings, results: results)
    }
}
