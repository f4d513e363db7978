import Foundation
import Evaluations
import LocalModel
import SearchIndex
import SearchTool

/// Runs samples through the real runner, index and search tool with a model that replays a
/// script, so every metric has a known right answer.
enum Scripted {
    static let utc = TimeZone(identifier: "UTC") ?? .current

    static func corpus() throws -> [SearchableItem] {
        try CorpusReader().items(contentsOf: SampleData.trailsCorpus)
    }

    static func run(_ samples: [EvaluationSample], script: [String], guide: SearchSetup.GuideLevel = .complete,
                    embedder: (any TextEmbedder)? = nil, wordsSearch: WordsSearch = .hybrid,
                    now: @escaping @Sendable () -> Date = { Date() }) async throws -> [SampleResult] {
        let runner = EvaluationRunner(model: ScriptedLanguageModel(script),
                                      configuration: .init(guide: guide, timeZone: utc, toolCallingMode: .allowed, embedder: embedder,
                                                           wordsSearch: wordsSearch, now: now))
        return try await runner.run(corpus: .items(corpus()), samples: samples)
    }

    static func run(_ sample: EvaluationSample, script: [String], guide: SearchSetup.GuideLevel = .complete) async throws -> SampleResult {
        let results = try await run([sample], script: script, guide: guide)
        guard let result = results.first else { throw ScriptError.noResult }
        return result
    }

    enum ScriptError: Error { case noResult }

    /// A search call with `query` (JSON text) as its query.
    static func search(_ query: String) -> String {
        "<tool_call>\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \(query)}}\n</tool_call>"
    }

    static func fetch(_ id: String) -> String {
        "<tool_call>\n{\"name\": \"fetch_item\", \"arguments\": {\"id\": \"\(id)\"}}\n</tool_call>"
    }

    static func call(_ name: String, _ arguments: String) -> String {
        "<tool_call>\n{\"name\": \"\(name)\", \"arguments\": \(arguments)}\n</tool_call>"
    }

    static func sample(_ expected: [String], facts: [String] = [], trajectory: TrajectoryExpectation? = nil) -> EvaluationSample {
        EvaluationSample(id: "s", prompt: "Which trails?", expectedIdentifiers: expected, expectedFacts: facts, trajectory: trajectory)
    }
}
