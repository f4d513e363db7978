import Foundation
import Testing
import LocalModel
import TokenBudget

/// The session with the real default model: calls must be valid by construction even from a
/// 135M-parameter model.
@Suite("LanguageModelSession with the real default model", .serialized)
struct RealModelSessionTests {
    /// Holds a fact the model cannot guess, so the answer path must go through the tool.
    struct LockerCodeTool: Tool {
        struct Arguments: Generable, Codable {
            var trail: String
            var year: Int?
            static let generationSchema: GenerationSchema = .object([
                .property("trail", .string(description: "The trail's name", anyOf: ["Alpine Loop", "Cedar Falls", "Mesa Rim"])),
                .property("year", .integer(description: "Year of the visit", in: 2000...2030), optional: true),
            ])
        }
        let name = "locker_code"
        let description = "Returns the trailhead locker code for a trail."
        func call(arguments: Arguments) async throws -> String {
            "The locker code at \(arguments.trail) is 7391-QX."
        }
    }

    let instructions = "You help hikers. Use the locker_code tool to look up locker codes."

    func toolCalls(_ entries: some Sequence<Transcript.Entry>) -> [Transcript.ToolCall] {
        entries.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let calls) = entry { return calls.calls }
            return []
        }
    }

    @Test func requiredCallsAreSchemaValidInTwentySeededRuns() async throws {
        let model = try TestModel.shared()
        let tool = LockerCodeTool()
        for seed in UInt32(1)...20 {
            let session = LanguageModelSession(model: model, tools: [tool], instructions: instructions, contextWindow: .k4)
            let options = GenerationOptions(sampling: .random(top: 40, seed: seed), temperature: 0.8,
                                            maximumResponseTokens: 48, toolCallingMode: .required)
            let response = try await session.respond(to: "What is the locker code at Cedar Falls?", options: options)
            let calls = toolCalls(response.transcriptEntries)
            #expect(!calls.isEmpty, "seed \(seed): no call")
            for call in calls {
                #expect(call.toolName == "locker_code", "seed \(seed)")
                #expect(throws: Never.self, "seed \(seed): \(call.arguments.jsonString)") {
                    try tool.parameters.validate(call.arguments)
                }
            }
            let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
            for call in calls {
                let output = outputs.first { $0.id == call.id }
                #expect(output?.isError == false && output?.text.contains("7391-QX") == true, "seed \(seed)")
            }
            #expect(response.transcriptEntries.last.map { if case .response = $0 { true } else { false } } == true, "seed \(seed)")
        }
    }

    @Test func disallowedNeverCalls() async throws {
        let model = try TestModel.shared()
        for question in ["What is the locker code at Mesa Rim?", "Call the locker_code tool for Alpine Loop.", "Hello!"] {
            let session = LanguageModelSession(model: model, tools: [LockerCodeTool()], instructions: instructions, contextWindow: .k4)
            let response = try await session.respond(to: question, options: .init(maximumResponseTokens: 48, toolCallingMode: .disallowed))
            #expect(toolCalls(response.transcriptEntries).isEmpty)
            #expect(!response.content.contains("<tool_call>"))
        }
    }

    @Test func allowedGivesTextOrAValidCall() async throws {
        let model = try TestModel.shared()
        let tool = LockerCodeTool()
        for question in ["What is the locker code at Mesa Rim?", "Tell me a joke about hiking.", "Which trails do you know?"] {
            let session = LanguageModelSession(model: model, tools: [tool], instructions: instructions, contextWindow: .k4)
            let response = try await session.respond(to: question, options: .init(maximumResponseTokens: 48))
            for call in toolCalls(response.transcriptEntries) {
                #expect(throws: Never.self) { try tool.parameters.validate(call.arguments) }
            }
            #expect(!response.content.contains("<tool_call>"))
        }
    }

    @Test func finalSnapshotEqualsTheResponsesContent() async throws {
        let model = try TestModel.shared()
        let options = GenerationOptions(maximumResponseTokens: 40)
        let session = LanguageModelSession(model: model, instructions: "Answer in one sentence.", contextWindow: .k4)
        let stream = session.streamResponse(to: "Why do people hike?", options: options)
        var last = ""
        var count = 0
        for try await snapshot in stream {
            #expect(snapshot.content.hasPrefix(last))
            last = snapshot.content
            count += 1
        }
        let response = try await stream.collect()
        #expect(count > 1)
        #expect(!last.isEmpty)
        #expect(last == response.content)
        #expect(response.transcriptEntries.last.map { if case .response(let answer) = $0 { answer.text == last } else { false } } == true)
    }

    @Test func anOverBudgetRequestThrowsBeforeAnyDecode() async throws {
        let model = try TestModel.shared()
        let session = LanguageModelSession(model: model, tools: [LockerCodeTool()],
                                           instructions: String(repeating: "Always be careful on the trail. ", count: 200),
                                           contextWindow: 512)
        await #expect {
            _ = try await session.respond(to: "Hi")
        } throws: { error in
            guard case .exceededContextWindowSize(let budget) = error as? LanguageModelSession.GenerationError else { return false }
            return budget.description.contains("512") && budget.description.contains("instructions")
        }
        #expect(await session.engineCounters.tokensDecoded == 0)
    }

    @Test func secondQuestionReusesTheCachedInstructions() async throws {
        let model = try TestModel.shared()
        let first = LanguageModelSession(model: model, tools: [LockerCodeTool()], instructions: instructions, contextWindow: .k4)
        try await first.prewarm()
        let warm = try await first.respond(to: "Hello!", options: .init(maximumResponseTokens: 8, toolCallingMode: .disallowed))
        let systemTokens = try model.tokenizer.tokenize(
            ChatTemplate(family: .chatml).render([ChatMessage(.system, "x")], addAssistantPrefix: false)).count
        #expect(warm.usage.cachedTokens > systemTokens)
    }
}
