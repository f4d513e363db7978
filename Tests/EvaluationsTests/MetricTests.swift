import Foundation
import Testing
import Evaluations

/// Metrics on scripted responses over the real trails corpus. Expected values come from the
/// corpus itself (Samples/README.md): Priya is in the notes of trail-001 and trail-014, four
/// trails are in California (trail-001 to trail-004), trail-008 holds the headlamp note.
@Suite("Metrics on scripted transcripts")
struct MetricTests {
    @Test func resultCoverageCountsWhatTheToolReturnedNotWhatTheAnswerSays() async throws {
        let sample = Scripted.sample(["trail-001", "trail-014"])
        let searched = try await Scripted.run(sample, script: [Scripted.search(#"{"terms": ["priya"]}"#), "Mist Trail to Vernal Fall, and trail-099."])
        #expect(searched.metrics.resultCoverage == 1.0)
        #expect(Set(searched.metrics.identifiersFound) == ["trail-001", "trail-014"])
        #expect(searched.metrics.answerCoverage == 0.5, "only trail-001 is cited, by its title")

        let unsearched = try await Scripted.run(sample, script: ["trail-001 and trail-014, I remember them."])
        #expect(unsearched.metrics.resultCoverage == 0.0, "citing ids without searching must not count as coverage")
        #expect(unsearched.metrics.answerCoverage == 1.0)
        #expect(unsearched.metrics.toolCalls == 0 && unsearched.metrics.validToolCallShare == nil)
    }

    @Test func aCountStageReturnsNoItemsSoCoverageDrops() async throws {
        let sample = Scripted.sample(["trail-001", "trail-002", "trail-003", "trail-004"], facts: ["4"])
        let filter = #""filters": [{"attribute": "stateOrProvince", "op": "is", "value": "California"}]"#
        let listed = try await Scripted.run(sample, script: [Scripted.search("{\(filter)}"), "Four trails."])
        #expect(listed.metrics.resultCoverage == 1.0)
        #expect(listed.metrics.grounded == false && listed.metrics.missingFacts == ["4"])

        let counted = try await Scripted.run(sample, script: [Scripted.search(#"{\#(filter), "stages": [{"stage": "count"}]}"#), "You hiked 4 trails in California."])
        #expect(counted.metrics.resultCoverage == 0.0, "the model received a bare count, no items")
        #expect(counted.metrics.grounded == true)
        #expect(counted.metrics.validToolCalls == 1)
    }

    @Test func groundingIsCaseInsensitiveAndNeedsEveryFact() async throws {
        let facts = ["spare batteries", "headlamp"]
        let both = try await Scripted.run(Scripted.sample(["trail-008"], facts: facts), script: ["Your HEADLAMP died: bring Spare Batteries."])
        #expect(both.metrics.grounded == true && both.metrics.missingFacts.isEmpty)
        let one = try await Scripted.run(Scripted.sample(["trail-008"], facts: facts), script: ["Pack a waterproof jacket and a headlamp."])
        #expect(one.metrics.grounded == false && one.metrics.missingFacts == ["spare batteries"])
        let none = try await Scripted.run(Scripted.sample(["trail-008"]), script: ["Anything."])
        #expect(none.metrics.grounded == nil, "a sample without facts has no grounding to measure")
    }

    @Test func invalidAndMalformedCallsCountAgainstValidity() async throws {
        let turn = [
            Scripted.search(#"{"terms": ["lake"]}"#),
            Scripted.call("fetch_item", #"{"id": 5}"#),
            Scripted.call("weather", #"{"city": "Moab"}"#),
            "<tool_call>\n{\"name\": \"fetch_item\", \"arguments\": {\"id\": \n</tool_call>",
        ].joined(separator: "\n")
        let result = try await Scripted.run(Scripted.sample(["trail-005"]), script: [turn, "Done."])
        #expect(result.metrics.toolCalls == 4)
        #expect(result.metrics.validToolCalls == 1)
        #expect(result.metrics.validToolCallShare == 0.25)
        #expect(result.metrics.invalidToolCallReasons.count == 3)
        #expect(result.metrics.calledTools == ["spotlight_search", "fetch_item", "weather"])
    }

    @Test func latencyAndTokensComeFromTheResponse() async throws {
        let result = try await Scripted.run(Scripted.sample(["trail-008"]), script: [Scripted.fetch("trail-008"), "Spare batteries."])
        #expect(result.metrics.tokens.prompt > 0, "the scripted model counts its prompts")
        #expect(result.metrics.latency.total >= result.metrics.latency.retrieval)
        #expect(result.error == nil)
    }

    @Test func aFailedResponseIsAResultWithItsError() async throws {
        // a new search every round, so only the round limit stops it
        let loop = (1...6).map { Scripted.search(#"{"terms": ["lake \#($0)"]}"#) }
        let result = try await Scripted.run(Scripted.sample(["trail-005"]), script: loop)
        #expect(result.error != nil)
        #expect(result.answer.isEmpty)
        #expect(result.metrics.toolCalls >= 4, "the calls before the failure still count")
        #expect(AggregateMetrics([result]).failedRuns == 1)
    }
}
