import Testing
import LocalModel

/// The session's side of issue 47: a call in another spelling runs while calls are allowed,
/// the answer round may not begin with one, and a looping answer ends and says why.
@Suite("Answer round guards with a scripted model")
struct AnswerRoundGuardTests {
    static let loop = String(repeating: "[read_text] 53% me ", count: 40)

    @Test func aBareCallRunsAndTheModelReadsItBackInItsLayout() async throws {
        let model = ScriptedLanguageModel([#"{"name": "add", "arguments": {"a": 1, "b": 2}}"#, "Three."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        let response = try await session.respond(to: "What is 1+2?")
        #expect(tool.runs.value == 1)
        #expect(response.content == "Three.")
        let calls = response.transcriptEntries.compactMap { if case .toolCalls(let calls) = $0 { calls } else { nil } }
        #expect(calls.first?.rawText == RepeatedToolCallTests.onePlusTwo)
        #expect(try #require(model.prompts.last).contains(RepeatedToolCallTests.onePlusTwo))
    }

    @Test func proseBeforeAFencedCallIsAllTheUserReads() async throws {
        let model = ScriptedLanguageModel(["Let me add.\n```json\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 2}}\n```", "Four."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        let response = try await session.respond(to: "What is 2+2?")
        #expect(tool.runs.value == 1)
        #expect(!response.content.contains("name") && !response.content.contains("`"))
        #expect(response.content.hasSuffix("Four."))
    }

    @Test func onlyTheAnswerRoundForbidsACallsOpening() async throws {
        let model = ScriptedLanguageModel([SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#), "Three."])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool()], maximumToolRounds: 1)
        _ = try await session.respond(to: "What is 1+2?")
        let parameters = model.parameters
        #expect(parameters.count == 2)
        #expect(parameters[0].forbiddenOpenings.isEmpty, "calls are allowed in the first round")
        #expect(parameters[1].forbiddenOpenings.contains("{") && parameters[1].forbiddenOpenings.contains("<tool_call>"))
        #expect(parameters[1].forbiddenOpenings.contains("```json{") && parameters[1].forbiddenOpenings.contains("[{"))
        #expect(parameters.allSatisfy { $0.repeatedTextStop != nil }, "either round may be the answer")
    }

    @Test(arguments: [1, 4])
    func aLoopingAnswerEndsAndTheTranscriptSaysWhy(maximumToolRounds: Int) async throws {
        let model = ScriptedLanguageModel([SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#), "The code says: " + Self.loop])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool()], maximumToolRounds: maximumToolRounds)
        let response = try await session.respond(to: "What does the code say?")
        #expect(response.content.components(separatedBy: "[read_text]").count - 1 <= 4, "\(response.content)")
        guard case .repeatedSpan(let span) = response.truncation else { Issue.record("\(String(describing: response.truncation))"); return }
        #expect(span.contains("53% me"))
        guard case .response(let entry) = response.transcriptEntries.last else { Issue.record("no response entry"); return }
        #expect(entry.truncation == response.truncation)
    }

    @Test func anAnswerTheModelEndsHasNoTruncation() async throws {
        let model = ScriptedLanguageModel(["Hello there."])
        let response = try await LanguageModelSession(model: model).respond(to: "Hi")
        #expect(response.truncation == nil)
    }
}
