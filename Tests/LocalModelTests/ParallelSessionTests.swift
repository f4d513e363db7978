import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

/// Sessions that share one llama.cpp context (`Configuration.parallelSessions`), their decodes
/// in one batch, with the real default model.
@Suite("Sessions sharing one llama.cpp context", .serialized)
struct ParallelSessionTests {
    static let window = ContextWindow(tokens: 512)
    let template = ChatTemplate(family: .chatml)

    func prompt(_ question: String) -> String {
        template.render([ChatMessage(.system, "You are a helpful assistant."), ChatMessage(.user, question)])
    }

    /// The default model loaded with `sessions` conversations per llama.cpp context.
    func model(sessions: Int) throws -> LocalModel {
        try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, parallelSessions: sessions))
    }

    /// Exactly `tokens` tokens (end of generation ignored), greedy.
    func exactly(_ tokens: Int) -> GenerationParameters {
        GenerationParameters(maximumTokens: tokens, stopsAtEndOfGeneration: false)
    }

    /// Runs every generation at once; their texts and summaries, in order.
    func atOnce(_ runs: [(InferenceContext, String, GenerationParameters)]) async throws -> [(String, GenerationSummary?)] {
        try await withThrowingTaskGroup(of: (Int, (String, GenerationSummary?)).self) { group in
            for (index, (context, text, parameters)) in runs.enumerated() {
                group.addTask { (index, try await TestModel.collect(context.generate(prompt: text, parameters: parameters))) }
            }
            var results: [(Int, (String, GenerationSummary?))] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    @Test func twoSessionsAskingTheSameAtOnceGetTheSameAnswerInTheirOwnCaches() async throws {
        let model = try model(sessions: 2)
        let first = try model.makeContext(window: Self.window), second = try model.makeContext(window: Self.window)
        let question = prompt("Describe a walk along a river.")
        let results = try await atOnce([(first, question, exactly(24)), (second, question, exactly(24))])
        // the same tokens in the same batch give the same scores: a session fed another's
        // tokens or logits, or cells written to the other's sequence, would diverge
        #expect(results[0].0 == results[1].0)
        #expect(results.map { $0.1?.generatedTokens } == [24, 24])
        let promptTokens = try model.tokenizer.tokenize(question, addSpecial: true, parseSpecial: true).count
        for context in [first, second] {
            // the prompt and every generated token but the last (sampled, never decoded)
            #expect(await context.cachedTokenCount == promptTokens + 23)
            let again = try await TestModel.collect(context.generate(prompt: question, parameters: exactly(1)))
            #expect(again.1?.reusedTokens == promptTokens - 1)
        }
    }

    @Test func zeroParallelSessionsSetAfterwardsAreRefusedWhenTheModelLoads() throws {
        // it crashed makeContext once; now the load refuses it (ConfigurationBoundsTests has the range)
        var configuration = LocalModel.Configuration(threads: 2)
        configuration.parallelSessions = 0
        #expect(throws: LocalModelError.parallelSessionsOutOfRange(requested: 0, maximum: LocalModel.Configuration.maximumParallelSessions)) {
            try LocalModel(contentsOf: TestModel.url, configuration: configuration)
        }
    }

    @Test func aThirdSessionOnTwoSlotsGetsAContextOfItsOwnAndAllFinish() async throws {
        let model = try model(sessions: 2)
        let contexts = try (0..<3).map { _ in try model.makeContext(window: Self.window) }
        let questions = ["Name a bird.", "Name a tree.", "Name a river."].map(prompt)
        let results = try await atOnce(zip(contexts, questions).map { ($0, $1, exactly(16)) })
        #expect(results.map { $0.1?.generatedTokens } == [16, 16, 16])
        #expect(results.map { $0.1?.stopReason } == Array(repeating: .maximumTokens, count: 3))
    }

    @Test func aSequenceGivenBackStartsEmptyForTheNextConversation() async throws {
        let model = try model(sessions: 2)
        let question = prompt("Name a mountain.")
        let staying = try model.makeContext(window: Self.window)
        var leaving: InferenceContext? = try model.makeContext(window: Self.window)
        let (first, _) = try await TestModel.collect(leaving!.generate(prompt: question, parameters: exactly(8)))
        leaving = nil
        // work on the engine thread after the release, so the freed sequence is cleared and free
        await staying.reset()
        let next = try model.makeContext(window: Self.window)
        // cells left in the sequence would make llama.cpp refuse a prompt at position 0
        let (second, summary) = try await TestModel.collect(next.generate(prompt: question, parameters: exactly(8)))
        #expect(second == first)
        #expect(summary?.reusedTokens == 0)
        #expect(summary?.generatedTokens == 8)
    }

    @Test func cancellingOneSessionLeavesTheOtherToFinish() async throws {
        let model = try model(sessions: 2)
        let cancelled = try model.makeContext(window: Self.window), finishing = try model.makeContext(window: Self.window)
        let stopped = Task {
            var pieces = 0
            for try await event in cancelled.generate(prompt: prompt("Tell a long story."), parameters: exactly(400)) {
                if case .text = event { pieces += 1 }
                if pieces == 3 { break }
            }
            return pieces
        }
        let (_, summary) = try await TestModel.collect(finishing.generate(prompt: prompt("Tell a short story."), parameters: exactly(48)))
        #expect(try await stopped.value == 3)
        #expect(summary?.generatedTokens == 48)
        // the cancelled session's context is whole: it generates again
        let (_, after) = try await TestModel.collect(cancelled.generate(prompt: prompt("Name a lake."), parameters: exactly(4)))
        #expect(after?.generatedTokens == 4)
    }

    @Test func callsOnOneContextTakeTurnsWhileItWaitsForTheBatch() async throws {
        let model = try model(sessions: 2)
        let context = try model.makeContext(window: Self.window)
        let long = prompt("Write about the sea."), short = prompt("Write about the sky.")
        let longTokens = try model.tokenizer.tokenize(long, addSpecial: true, parseSpecial: true)
        // without turns, the prefill would cut the cache under the generation between two of
        // its decodes, and one of them would write at positions llama.cpp refuses
        async let generation = TestModel.collect(context.generate(prompt: short, parameters: exactly(32)))
        async let prefill = context.prefill(tokens: longTokens)
        let (_, summary) = try await generation
        _ = try await prefill
        #expect(summary?.generatedTokens == 32)
        let (_, after) = try await TestModel.collect(context.generate(prompt: long, parameters: exactly(1)))
        let cached = await context.cachedTokenCount
        #expect(after?.promptTokens == longTokens.count)
        #expect(cached == longTokens.count)
    }
}
