import Foundation
import Testing
import Evaluations

@Suite("Aggregates, thresholds and the report")
struct ReportTests {
    /// Three scripted runs with known metrics: full coverage and grounded; half coverage and
    /// not grounded; no search and no facts.
    func results() async throws -> [SampleResult] {
        let samples = [
            EvaluationSample(id: "a", prompt: "Priya?", expectedIdentifiers: ["trail-001", "trail-014"], expectedFacts: ["Vernal"],
                             trajectory: TrajectoryExpectation(unordered: [ToolExpectation("spotlight_search")])),
            EvaluationSample(id: "b", prompt: "Priya and Moab?", expectedIdentifiers: ["trail-001", "trail-010"], expectedFacts: ["Moab"],
                             trajectory: TrajectoryExpectation(unordered: [ToolExpectation("fetch_item")])),
            EvaluationSample(id: "c", prompt: "Hi", expectedIdentifiers: []),
        ]
        let script = [
            Scripted.search(#"{"terms": ["priya"]}"#), "Mist Trail to Vernal Fall.",
            Scripted.search(#"{"terms": ["priya"]}"#), "No idea.",
            "Hello.",
        ]
        return try await Scripted.run(samples, script: script)
    }

    @Test func aggregatesAverageOverTheRunsEachMetricAppliesTo() async throws {
        let aggregate = AggregateMetrics(try await results())
        #expect(aggregate.runs == 3)
        #expect(aggregate.resultCoverage == 0.75, "(1 + 0.5) / 2; the run without expected items is left out")
        #expect(aggregate.groundedRate == 0.5)
        #expect(aggregate.trajectoryPassRate == 0.5)
        #expect(aggregate.validToolCalls == 1.0)
        #expect(aggregate.toolCalls == 2)
        #expect(aggregate.failedRuns == 0)
    }

    @Test func thresholdsReportEachMiss() async throws {
        let aggregate = AggregateMetrics(try await results())
        #expect(EvaluationThresholds(resultCoverage: 0.75, groundedRate: 0.5).misses(aggregate).isEmpty)
        let misses = EvaluationThresholds(resultCoverage: 0.8, groundedRate: 0.6).misses(aggregate)
        #expect(misses.count == 2)
        #expect(misses.first?.contains("result coverage") == true)
        #expect(EvaluationThresholds(groundedRate: 0.1).misses(AggregateMetrics([])).count == 1, "an unmeasurable metric misses")
    }

    @Test func theReportRoundTripsAndTabulatesEveryRun() async throws {
        let report = EvaluationReport(settings: .init(model: "m.gguf", corpus: "c.jsonl", samples: "s.jsonl", guide: "complete",
                                                      format: "compact", contextWindow: 8192, repetitions: 1, seed: nil, today: nil, answerStyle: "prose"),
                                      results: try await results())
        let decoded = try JSONDecoder().decode(EvaluationReport.self, from: report.jsonData())
        #expect(decoded == report)
        let lines = report.table().split(separator: "\n")
        for id in ["a", "b", "c"] { #expect(lines.contains { $0.hasPrefix(id + " ") }) }
        #expect(lines.contains { $0.hasPrefix("ALL (3 runs)") && $0.contains("75.0%") })
    }
}
