import Testing
import Evaluations

/// "Answers that are calls" (issue 47): an answer the user reads that is a tool call written as
/// text is counted, by the session's own reader, in every spelling.
@Suite("Answers that are calls")
struct AnswerIsCallMetricTests {
    static func metrics(_ answer: String) -> SampleMetrics {
        SampleMetrics(sample: Scripted.sample(["trail-001"]), observation: SampleObservation(answer: answer, entries: []), titles: [:], schemas: [:])
    }

    @Test func anAnswerWrittenAsACallIsCountedInEverySpelling() {
        // what Qwen2.5-Coder-0.5B and -1.5B printed as their answers (issue 47)
        let calls = [#"{"name": "spotlight_search", "arguments": {"query": "California water features"}}"#,
                     #"{"name": "fetch_item", "arguments": {"id": "0", "passage": 0, "page": 1, "around": ""}}"#,
                     "```json\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"lake\"}}\n```",
                     #"[{"name": "spotlight_search", "arguments": {"query": "lake"}}]"#]
        for call in calls { #expect(Self.metrics(call).answerIsCall == true, "\(call)") }
        #expect(Self.metrics("Mist Trail [trail-001] has a waterfall.").answerIsCall == false)
    }

    @Test func theAggregateCountsThem() {
        let results = [#"{"name": "spotlight_search", "arguments": {"query": "x"}}"#, "Mist Trail has a waterfall."].map {
            SampleResult(sampleID: "s", repetition: 0, prompt: "Which trails?", answer: $0, error: nil, metrics: Self.metrics($0))
        }
        #expect(AggregateMetrics(results).answersThatAreCalls == 1)
    }
}
