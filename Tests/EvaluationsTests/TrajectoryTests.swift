import Testing
import Evaluations

/// Trajectory expectations checked against the calls of scripted responses, as Apple's
/// `TrajectoryExpectation` checks a transcript.
@Suite("Trajectory expectations")
struct TrajectoryTests {
    static let search = ToolExpectation("spotlight_search", arguments: ["query"])
    static let fetch = ToolExpectation("fetch_item", arguments: ["id"])

    /// Runs each expectation against the same response: search, search again, fetch, answer.
    func verdicts(_ expectations: [TrajectoryExpectation], calls: [String]? = nil) async throws -> [Bool?] {
        let turns = calls ?? [Scripted.search(#"{"terms": ["lake"]}"#), Scripted.search(#"{"terms": ["waterfall"]}"#), Scripted.fetch("trail-008")]
        let samples = expectations.enumerated().map { index, expectation in
            EvaluationSample(id: "t\(index)", prompt: "Lakes?", expectedIdentifiers: [], trajectory: expectation)
        }
        let script = Array(Array(repeating: turns + ["Answer."], count: samples.count).joined())
        return try await Scripted.run(samples, script: script).map(\.metrics.trajectoryPass)
    }

    @Test func orderedAllowsCallsBetweenButNotReordering() async throws {
        let results = try await verdicts([
            TrajectoryExpectation(ordered: [Self.search, Self.fetch]),
            TrajectoryExpectation(ordered: [Self.fetch, Self.search]),
            TrajectoryExpectation(ordered: [Self.search, Self.search, Self.fetch]),
            TrajectoryExpectation(ordered: [Self.search, Self.search, Self.search]),
            TrajectoryExpectation(ordered: [Self.search, Self.fetch], allowsAdditionalToolCalls: false),
        ])
        #expect(results == [true, false, true, false, false])
    }

    @Test func unorderedNeedsEachExpectedCallOnce() async throws {
        let results = try await verdicts([
            TrajectoryExpectation(unordered: [Self.fetch, Self.search]),
            TrajectoryExpectation(unordered: [Self.fetch, Self.fetch]),
            TrajectoryExpectation(unordered: [ToolExpectation("spotlight_search", arguments: ["query", "limit"])]),
            TrajectoryExpectation(unordered: [ToolExpectation("fetch_item", arguments: ["query"])]),
            TrajectoryExpectation(unordered: []),
        ])
        #expect(results == [true, false, false, false, true])
    }

    @Test func disallowedToolsFailTheTrajectory() async throws {
        let results = try await verdicts([
            TrajectoryExpectation(unordered: [Self.search], disallowed: ["fetch_item"]),
            TrajectoryExpectation(unordered: [Self.search], disallowed: ["weather"]),
            TrajectoryExpectation(ordered: [Self.search], disallowed: ["fetch_item"]),
        ])
        #expect(results == [false, true, false])
    }

    /// A call without the key can only satisfy the key-less expectation, so the calls pass
    /// only if each expectation gets a different call (a greedy match takes the wrong one).
    @Test func unorderedMatchingAssignsDistinctCalls() async throws {
        let calls = [Scripted.search(#"{"terms": ["lake"]}"#), Scripted.call("spotlight_search", #"{"label": "no query"}"#)]
        let results = try await verdicts([
            TrajectoryExpectation(unordered: [ToolExpectation("spotlight_search"), Self.search]),
            TrajectoryExpectation(unordered: [Self.search, Self.search]),
        ], calls: calls)
        #expect(results == [true, false])
    }

    @Test func noTrajectoryMeansNotMeasured() async throws {
        let result = try await Scripted.run(Scripted.sample([]), script: ["Hello."])
        #expect(result.metrics.trajectoryPass == nil)
        #expect(AggregateMetrics([result]).trajectoryPassRate == nil)
    }
}
