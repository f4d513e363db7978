import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

/// The session with the real default model: calls must be valid by construction even from a
/// 135M-parameter model. Other CPUs make ggml pick other kernels and so the model other tokens:
/// these tests check what the session guarantees (valid calls, the tool's outputs, the loop's
/// end, the stream, the budget, the cache), never which trail, text or ending the model chose.
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

    func toolOutputs(_ entries: some Sequence<Transcript.Entry>) -> [Transcript.ToolOutput] {
        entries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
    }

    /// How one response ended: with an answer, or with the typed error the session throws when
    /// the model still tries to call a tool in a round that must answer (after its last allowed
    /// round, or after a round that only repeated earlier calls). Which of the two happens is
    /// the model's choice; that it is one of them is Lantern's guarantee.
    struct Outcome {
        /// The entries this response added to the transcript, from its prompt on.
        var entries: [Transcript.Entry]
        var response: LanguageModelSession.Response<String>?
    }

    func respond(_ session: LanguageModelSession, to question: String, options: GenerationOptions) async throws -> Outcome {
        do {
            let response = try await session.respond(to: question, options: options)
            return Outcome(entries: Array(response.transcriptEntries), response: response)
        } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
            let transcript = session.transcript
            let start = transcript.lastIndex { if case .prompt = $0 { true } else { false } } ?? transcript.startIndex
            return Outcome(entries: Array(transcript[start...]), response: nil)
        }
    }

    /// The outputs of a response's calls are what the tool returns for them: a call that ran
    /// gets the tool's text (the locker code, whichever trail the model named); a call that
    /// repeated an earlier one of the same response was not run again and points at that call,
    /// whose output stands. A failed output can only be a call the token limit cut off (every
    /// call that parses is valid by construction).
    func expectOutputsAnswerTheCalls(_ entries: [Transcript.Entry], _ context: String) {
        let calls = toolCalls(entries)
        let outputs = toolOutputs(entries)
        for call in calls {
            guard let output = outputs.first(where: { $0.id == call.id }) else {
                Issue.record("\(context): no output for \(call.id)")
                continue
            }
            #expect(!output.isError, "\(context): \(output.text)")
            if let earlier = output.repeatedCallID {
                #expect(output.text == LanguageModelSession.repeatedCallNote, "\(context)")
                let original = calls.first { $0.id == earlier }
                #expect(original?.toolName == call.toolName && original?.arguments == call.arguments, "\(context): \(call.id) repeats \(earlier)")
                let stands = outputs.first { $0.id == earlier }
                #expect(stands?.isError == false && stands?.text.contains("7391-QX") == true, "\(context): \(String(describing: stands))")
            } else {
                #expect(output.text.contains("7391-QX"), "\(context): \(output.text)")
            }
        }
        let callIDs = Set(calls.map(\.id))
        for output in outputs where !callIDs.contains(output.id) {
            #expect(output.isError && output.text.hasPrefix("Error: the call was cut off before </tool_call>"), "\(context): \(output.text)")
        }
    }

    /// The first round must be a call, and the grammar admits only valid ones. The token limit
    /// is above the longest call the grammar admits (about 110 bytes; a token is at least one),
    /// so the first call is always complete, whatever the model writes.
    @Test func requiredCallsAreSchemaValidInTwentySeededRuns() async throws {
        let model = try TestModel.shared()
        let tool = LockerCodeTool()
        for seed in UInt32(1)...20 {
            let session = LanguageModelSession(model: model, tools: [tool], instructions: instructions, contextWindow: .k4)
            let options = GenerationOptions(sampling: .random(top: 40, seed: seed), temperature: 0.8,
                                            maximumResponseTokens: 128, toolCallingMode: .required)
            let outcome = try await respond(session, to: "What is the locker code at Cedar Falls?", options: options)
            let firstRound = outcome.entries.lazy.compactMap { if case .toolCalls(let turn) = $0 { turn } else { nil } }.first
            #expect(firstRound?.calls.isEmpty == false, "seed \(seed): the required round made no valid call")
            if case .toolCalls = outcome.entries.dropFirst().first {} else {
                Issue.record("seed \(seed): the first round was not a call: \(outcome.entries.dropFirst().first.map { "\($0)" } ?? "nothing")")
            }
            let calls = toolCalls(outcome.entries)
            for call in calls {
                #expect(call.toolName == "locker_code", "seed \(seed)")
                #expect(throws: Never.self, "seed \(seed): \(call.arguments.jsonString)") {
                    try tool.parameters.validate(call.arguments)
                }
            }
            expectOutputsAnswerTheCalls(outcome.entries, "seed \(seed)")
            if let response = outcome.response {
                #expect(response.transcriptEntries.last.map { if case .response = $0 { true } else { false } } == true, "seed \(seed)")
                #expect(!response.content.contains("<tool_call>"), "seed \(seed)")
            } else {
                // the round limit: the session stopped after recording the calls and their outputs
                #expect(outcome.entries.last.map { if case .toolOutput = $0 { true } else { false } } == true, "seed \(seed)")
            }
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

    /// Whether to call is the model's choice here; what it writes either way is guaranteed:
    /// calls valid against the schema, their outputs the tool's, no call markup in the answer.
    @Test func allowedGivesTextOrAValidCall() async throws {
        let model = try TestModel.shared()
        let tool = LockerCodeTool()
        for question in ["What is the locker code at Mesa Rim?", "Tell me a joke about hiking.", "Which trails do you know?"] {
            let session = LanguageModelSession(model: model, tools: [tool], instructions: instructions, contextWindow: .k4)
            let outcome = try await respond(session, to: question, options: .init(maximumResponseTokens: 48))
            for call in toolCalls(outcome.entries) {
                #expect(call.toolName == "locker_code", "\(question)")
                #expect(throws: Never.self) { try tool.parameters.validate(call.arguments) }
            }
            expectOutputsAnswerTheCalls(outcome.entries, question)
            if let response = outcome.response {
                #expect(!response.content.contains("<tool_call>"))
            } else {
                // the round limit is reached only after a round of calls
                #expect(outcome.entries.contains { if case .toolCalls = $0 { true } else { false } }, "\(question): round limit without a call")
            }
        }
    }

    /// The final snapshot is the response, and every snapshot extends the one before. How much
    /// the model writes is its choice: every visible piece gives a snapshot, and the final one
    /// comes after them.
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
        #expect(count >= (last.isEmpty ? 1 : 2), "\(count) snapshots of \(last.debugDescription)")
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
