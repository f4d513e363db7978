import Testing
import LocalModel

/// What the session does when a model repeats a call while answering one prompt.
@Suite("Repeated tool calls")
struct RepeatedToolCallTests {
    static let onePlusTwo = SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#)

    static func outputs(_ response: LanguageModelSession.Response<String>) -> [String] {
        response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output.text } else { nil } }
    }

    @Test func aRepeatRunsOnceAndTheRoundStopsAtTheFirstRepeatedText() async throws {
        // the same call with its keys swapped, then the first call again word for word, then a new one
        let swapped = SessionLoopTests.call("add", #"{"b": 2, "a": 1}"#)
        let looping = [Self.onePlusTwo, swapped, Self.onePlusTwo, SessionLoopTests.call("add", #"{"a": 5, "b": 5}"#)].joined(separator: "\n")
        let model = ScriptedLanguageModel([looping, "Three."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        let response = try await session.respond(to: "1+2?")

        #expect(tool.runs.value == 1)
        // generation stopped after the word-for-word repeat, so the last call was never written
        #expect(Self.outputs(response) == ["3", LanguageModelSession.repeatedCallNote, LanguageModelSession.repeatedCallNote])
        #expect(model.parameters.first?.repeatedSpanStop != nil)
        // the model reads the call and its output once
        let next = try #require(model.prompts.last)
        #expect(next.contains("<|im_start|>assistant\n" + Self.onePlusTwo + "<|im_end|>\n<|im_start|>user\n<tool_response>\n3\n</tool_response><|im_end|>"))
        #expect(!next.contains(LanguageModelSession.repeatedCallNote))
        // the round also made a new call, so the next one may still call tools
        #expect(model.parameters.count == 2)
        #expect(model.parameters[1].grammar != nil)
        #expect(response.content == "Three.")
    }

    @Test func aRepeatBetweenNewCallsIsLeftOutOfThePrompt() async throws {
        // the repeat has its keys swapped, so only its value (not its text) gives it away
        let threePlusFour = SessionLoopTests.call("add", #"{"a": 3, "b": 4}"#)
        let turn = "Adding.\n" + [Self.onePlusTwo, SessionLoopTests.call("add", #"{"b": 2, "a": 1}"#), threePlusFour].joined(separator: "\n")
        let model = ScriptedLanguageModel([turn, "3 and 7."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        let response = try await session.respond(to: "1+2 and 3+4?")

        #expect(tool.runs.value == 2)
        #expect(Self.outputs(response) == ["3", LanguageModelSession.repeatedCallNote, "7"])
        let calls = response.transcriptEntries.compactMap { if case .toolCalls(let turn) = $0 { turn } else { nil } }
        #expect(calls.first?.calls.count == 3, "the transcript records every call")
        #expect(calls.first?.rawText == "Adding.\n" + Self.onePlusTwo + "\n" + threePlusFour)
        let next = try #require(model.prompts.last)
        #expect(next.contains("<tool_response>\n3\n</tool_response>\n<tool_response>\n7\n</tool_response><|im_end|>"))
    }

    @Test func aRoundOfOnlyRepeatsIsFollowedByAnAnswerWithoutTools() async throws {
        let model = ScriptedLanguageModel([Self.onePlusTwo, Self.onePlusTwo, "It is three."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        let response = try await session.respond(to: "1+2?", options: .init(toolCallingMode: .required, requiredToolCallingExit: .keepRequiring))

        #expect(tool.runs.value == 1)
        #expect(Self.outputs(response) == ["3", LanguageModelSession.repeatedCallNote])
        // the second round knew the first round's call by its text
        #expect(model.parameters[1].repeatedSpanStop?.earlierSpans == [#"{"name": "add", "arguments": {"a": 1, "b": 2}}"#])
        #expect(model.parameters.count == 3)
        // no call can start: the only grammar is a citation's of the tool's output
        #expect(model.parameters[2].grammar?.activation == .lazy(triggers: ["["], grammarIncludesTrigger: true, tokens: []))
        #expect(model.parameters[2].stopStrings.contains("<tool_call>"))
        #expect(model.parameters[2].repeatedSpanStop == nil)
        // the answer round's prompt holds the first round only: the repeating round is left out
        let answerPrompt = try #require(model.prompts.last)
        #expect(answerPrompt.components(separatedBy: Self.onePlusTwo).count == 2)
        #expect(!answerPrompt.contains(LanguageModelSession.repeatedCallNote))
        #expect(response.content == "It is three.")
    }

    @Test func aModelThatOnlyRepeatsAndThenStillCallsFails() async throws {
        let model = ScriptedLanguageModel([Self.onePlusTwo, Self.onePlusTwo, Self.onePlusTwo])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool()])
        await #expect {
            _ = try await session.respond(to: "1+2?")
        } throws: { error in
            guard case .toolRoundLimitReached(let rounds) = error as? LanguageModelSession.GenerationError else { return false }
            return rounds == 2
        }
        #expect(!session.isResponding)
    }

    @Test func aLaterPromptMayRepeatAnEarlierPromptsCall() async throws {
        let model = ScriptedLanguageModel([Self.onePlusTwo, "Three.", Self.onePlusTwo, "Still three."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        _ = try await session.respond(to: "1+2?")
        let second = try await session.respond(to: "And again?")
        #expect(tool.runs.value == 2)
        #expect(Self.outputs(second) == ["3"])
    }

    @Test func runEveryCallRunsRepeatsToo() async throws {
        let model = ScriptedLanguageModel([Self.onePlusTwo + "\n" + Self.onePlusTwo, "Three, twice."])
        let tool = SessionLoopTests.AddTool()
        let session = LanguageModelSession(model: model, tools: [tool], repeatedToolCallPolicy: .runEveryCall)
        let response = try await session.respond(to: "1+2 twice?")
        #expect(tool.runs.value == 2)
        #expect(Self.outputs(response) == ["3", "3"])
        #expect(model.parameters.first?.repeatedSpanStop == nil)
    }
}
