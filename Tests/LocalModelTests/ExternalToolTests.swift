import Foundation
import Testing
import LocalModel

/// External tools (the caller runs their calls), a session started from a history, and
/// `GenerationOptions.allowedToolNames`, driven by a scripted model so every path is
/// deterministic; `ask serve`'s client tools rest on these.
@Suite("External tools, history and allowed tools with a scripted model")
struct ExternalToolTests {
    static let weather = ExternalTool(name: "get_weather", description: "The weather in a city.",
                                      parameters: .object([.property("city", .string(maxLength: 30))]))

    @Test func aCallOfAnExternalToolEndsTheResponseWithTheCallAndNothingRunsIt() async throws {
        let model = ScriptedLanguageModel(["Let me look. " + SessionLoopTests.call("get_weather", #"{"city": "Oslo"}"#), "never read"])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool(), Self.weather], instructions: "Use the tools.")
        let response = try await session.respond(to: "Weather in Oslo?")

        #expect(response.externalToolCalls.map(\.toolName) == ["get_weather"])
        #expect(response.externalToolCalls.first?.arguments == ["city": "Oslo"])
        #expect(response.content == "Let me look. ")
        #expect(model.prompts.count == 1, "a second round ran: \(model.prompts)")
        guard case .toolCalls(let calls)? = session.transcript.last else {
            Issue.record("the transcript does not end with the calls: \(session.transcript.entries)")
            return
        }
        #expect(calls.calls.map(\.id) == response.externalToolCalls.map(\.id))
    }

    @Test func theCallersOutputsContinueTheResponseAndTheModelReadsThem() async throws {
        let model = ScriptedLanguageModel([SessionLoopTests.call("get_weather", #"{"city": "Oslo"}"#), "It is sunny in Oslo."])
        let session = LanguageModelSession(model: model, tools: [Self.weather])
        let first = try await session.respond(to: "Weather in Oslo?")
        let call = try #require(first.externalToolCalls.first)

        let response = try await session.respond(continuingWith: [Transcript.ToolOutput(id: call.id, toolName: "", text: "sunny, 21 C")])
        #expect(response.content == "It is sunny in Oslo.")
        #expect(response.externalToolCalls.isEmpty)
        let prompt = try #require(model.prompts.last)
        #expect(prompt.contains("<tool_response>\nsunny, 21 C\n</tool_response>"), "\(prompt)")
        // the response's entries start at the turn's prompt, and the output is named after its call's tool
        let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.map(\.toolName) == ["get_weather"])
        guard case .prompt? = response.transcriptEntries.first else {
            Issue.record("the continued response's entries do not start at its prompt: \(response.transcriptEntries)")
            return
        }
    }

    @Test func outputsThatDoNotAnswerTheCallsAreRefusedByName() async throws {
        let model = ScriptedLanguageModel([SessionLoopTests.call("get_weather", #"{"city": "Oslo"}"#), "unused"])
        let session = LanguageModelSession(model: model, tools: [Self.weather])
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(continuingWith: [Transcript.ToolOutput(id: "call-1", toolName: "get_weather", text: "x")])
        }
        let first = try await session.respond(to: "Weather in Oslo?")
        let call = try #require(first.externalToolCalls.first)
        do {
            _ = try await session.respond(continuingWith: [Transcript.ToolOutput(id: call.id + "x", toolName: "get_weather", text: "x")])
            Issue.record("an output for no call was taken")
        } catch LanguageModelSession.GenerationError.cannotContinue(let reason) {
            #expect(reason.contains(call.id), "\(reason)")
        }
        // the refusal recorded nothing: the right output still continues
        _ = try await session.respond(continuingWith: [Transcript.ToolOutput(id: call.id, toolName: "get_weather", text: "rain")])
    }

    @Test func aHistoryIsRenderedBeforeTheNewPromptAndNewIDsAvoidItsOwn() async throws {
        let model = ScriptedLanguageModel(["It is 3."])
        let history: [Transcript.Entry] = [
            .prompt(.init(id: "prompt-1", text: "What is 1+1?")),
            .response(.init(id: "response-2", text: "It is 2.")),
        ]
        let session = LanguageModelSession(model: model, instructions: "Be brief.", history: history)
        _ = try await session.respond(to: "And 1+2?")
        let prompt = try #require(model.prompts.first)
        #expect(prompt.contains("<|im_start|>user\nWhat is 1+1?<|im_end|>\n<|im_start|>assistant\nIt is 2.<|im_end|>\n<|im_start|>user\nAnd 1+2?<|im_end|>"),
                "\(prompt)")
        let ids = session.transcript.map(\.id)
        #expect(Set(ids).count == ids.count, "\(ids)")
    }

    @Test func aHistoryWithTwoEntriesOfOneIDIsRefused() async throws {
        let history: [Transcript.Entry] = [.prompt(.init(id: "a", text: "Hi")), .response(.init(id: "a", text: "Hello"))]
        let session = LanguageModelSession(model: ScriptedLanguageModel(["unused"]), history: history)
        do {
            _ = try await session.respond(to: "Again")
            Issue.record("a history with a repeated id was taken")
        } catch LanguageModelSession.GenerationError.invalidHistory(let reason) {
            #expect(reason.contains("a"))
        }
    }

    @Test func allowedToolNamesLeaveTheOthersOutOfTheGrammarButNotOutOfTheInstructions() async throws {
        let model = ScriptedLanguageModel([SessionLoopTests.call("get_weather", #"{"city": "Oslo"}"#)])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool(), Self.weather])
        let options = GenerationOptions(toolCallingMode: .required, allowedToolNames: ["get_weather"])
        _ = try await session.respond(to: "Weather in Oslo?", options: options)
        let parameters = try #require(model.parameters.first)
        let grammar = try #require(parameters.grammar).gbnf
        #expect(grammar.contains("get_weather") && !grammar.contains("\\\"add\\\""), "\(grammar)")
        // one tool allowed: its name is forced
        #expect(parameters.forcedPrefix.contains("get_weather"), "\(parameters.forcedPrefix)")
        #expect(try #require(model.prompts.first).contains("\"name\": \"add\""))
    }
}
