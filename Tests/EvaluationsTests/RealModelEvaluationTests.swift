import Foundation
import Testing
import Evaluations
import LocalModel
import SearchIndex
import TestModelSupport

/// The runner end to end with the default model on the first three shipped samples (a
/// lookup, a filter and a count), decoded greedily so every run on one machine repeats.
///
/// What the runner guarantees is checked, not how well the model did: greedy output changes
/// with the CPU kernels ggml picks, so which tools the model calls, whether its trajectory
/// passes and whether it answers or runs into the round limit differ between machines. How
/// well the model does is what `eval` measures and its thresholds gate.
@Suite("Evaluation with the default model", .serialized)
struct RealModelEvaluationTests {
    @Test func runsTheFirstSamplesWithValidCalls() async throws {
        let model = try LocalModel(contentsOf: TestModel.url)
        let samples = Array(try SampleReader().samples(contentsOf: SampleData.trailsSamples).prefix(3))
        let corpus = try CorpusReader().items(contentsOf: SampleData.trailsCorpus)
        let runner = EvaluationRunner(model: model, configuration: .init(guide: .focused, maximumResponseTokens: 200))
        let results = try await runner.run(corpus: .items(corpus), samples: samples)
        let aggregate = AggregateMetrics(results)

        #expect(results.map(\.sampleID) == samples.map(\.id))
        #expect(samples.allSatisfy { $0.trajectory != nil }, "the first samples each have a trajectory")
        for (sample, result) in zip(samples, results) {
            let id = result.sampleID
            // a run ends with an answer, or with the session's typed round-limit error, recorded
            // in the result rather than thrown
            if let error = result.error {
                #expect(error.hasPrefix("the model called tools for "), "\(id): \(error)")
                #expect(result.answer.isEmpty, "\(id)")
            } else {
                #expect(result.metrics.tokens.prompt > 0 && result.metrics.latency.prefill > 0 && result.metrics.latency.decode > 0, "\(id)")
            }
            // tool calling is required in the first round
            #expect(result.metrics.toolCalls >= 1, "\(id): no call")
            // every call that parsed is valid against its tool's schema; only a call the token
            // limit cut off can fail to parse, and it counts as invalid
            let reasons = result.metrics.invalidToolCallReasons
            #expect(reasons.allSatisfy { $0 == "the session could not parse the call" }, "\(id): \(reasons)")
            #expect(result.metrics.validToolCalls + reasons.count == result.metrics.toolCalls, "\(id)")
            #expect(result.metrics.calledTools.allSatisfy { ["spotlight_search", "fetch_item"].contains($0) }, "\(id): \(result.metrics.calledTools)")
            // the trajectory is judged, pass or fail, with a reason when it fails
            if sample.trajectory != nil {
                let pass = try #require(result.metrics.trajectoryPass, "\(id): trajectory not judged")
                #expect(pass == (result.metrics.trajectoryFailure == nil), "\(id)")
            }
        }
        #expect(aggregate.runs == samples.count)
        #expect(aggregate.failedRuns == results.filter { $0.error != nil }.count)
        #expect(aggregate.toolCalls == results.map(\.metrics.toolCalls).reduce(0, +))
        #expect(aggregate.trajectoryPassRate != nil)
    }
}
