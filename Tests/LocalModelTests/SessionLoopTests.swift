import Foundation
import Synchronization
import Testing
import LocalModel
import TokenBudget

/// The session's tool loop, driven by a scripted model so every path is deterministic.
@Suite("LanguageModelSession loop with a scripted model")
struct SessionLoopTests {
    struct AddTool: Tool {
        struct Arguments: Generable, Codable {
            var a: Int
            var b: Int
            static let generationSchema: GenerationSchema = .object([
                .property("a", .integer(in: -1000...1000)), .property("b", .integer(in: -1000...1000)),
            ])
        }
        let name = "add"
        let description = "Adds two integers."
        let calls: Rendezvous?
        /// How often the tool really ran.
        let runs = RunCounter()

        init(calls: Rendezvous? = nil) { self.calls = calls }

        func call(arguments: Arguments) async throws -> String {
            runs.increment()
            if let calls { await calls.arrive() }
            return String(arguments.a + arguments.b)
        }
    }

    final class RunCounter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// Lets a test see whether calls overlapped: each call waits (briefly) for the others.
    actor Rendezvous {
        let expected: Int
        private(set) var arrived = 0
        private(set) var sawOthers: [Bool] = []
        init(expected: Int) { self.expected = expected }
        func arrive() async {
            arrived += 1
            let deadline = ContinuousClock.now + .seconds(5)
            while arrived < expected && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            sawOthers.append(arrived == expected)
        }
    }

    struct FailingTool: Tool {
        struct Failure: Error, CustomStringConvertible { var description: String { "the weather service is down" } }
        struct Arguments: Generable, Codable {
            var city: String
            static let generationSchema: GenerationSchema = .object([.property("city", .string(maxLength: 30))])
        }
        let name = "weather"
        let description = "Weather for a city."
        func call(arguments: Arguments) async throws -> String { throw Failure() }
    }

    struct SlowTool: Tool {
        struct Arguments: Generable, Codable {
            static let generationSchema: GenerationSchema = .object([])
        }
        let name = "slow"
        let description = "Takes its time."
        let observedCancellation = Flag()
        let start = Flag()
        func call(arguments: Arguments) async throws -> String {
            start.set()
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                observedCancellation.set()
                throw error
            }
            return "done"
        }
    }

    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    static func call(_ name: String, _ arguments: String) -> String {
        "<tool_call>\n{\"name\": \"\(name)\", \"arguments\": \(arguments)}\n</tool_call>"
    }

    @Test func multiCallTurnRunsToolsConcurrentlyAndRecordsEverything() async throws {
        let model = ScriptedLanguageModel([
            Self.call("add", #"{"a": 1, "b": 2}"#) + "\n" + Self.call("add", #"{"a": 30, "b": 4}"#),
            "The sums are 3 and 34.",
        ])
        let rendezvous = Rendezvous(expected: 2)
        let session = LanguageModelSession(model: model, tools: [AddTool(calls: rendezvous)], instructions: "Use the tools.")
        let response = try await session.respond(to: "What are 1+2 and 30+4?")

        #expect(response.content == "The sums are 3 and 34.")
        let entries = Array(response.transcriptEntries)
        guard entries.count == 5, case .prompt = entries[0], case .toolCalls(let calls) = entries[1],
              case .toolOutput(let first) = entries[2], case .toolOutput(let second) = entries[3],
              case .response(let answer) = entries[4] else {
            Issue.record("unexpected transcript \(entries)")
            return
        }
        #expect(calls.calls.map(\.toolName) == ["add", "add"])
        #expect(calls.calls[1].arguments == ["a": 30, "b": 4])
        #expect([first.text, second.text] == ["3", "34"])
        #expect(first.id == calls.calls[0].id && second.id == calls.calls[1].id)
        #expect(answer.text == response.content)
        #expect(await rendezvous.sawOthers == [true, true])
        // the second round's prompt carries the results back in Qwen's layout
        let secondPrompt = try #require(model.prompts.last)
        #expect(secondPrompt.contains("<|im_start|>user\n<tool_response>\n3\n</tool_response>\n<tool_response>\n34\n</tool_response><|im_end|>"))
    }

    @Test func toolDefinitionsAreRenderedInQwensLayout() async throws {
        let model = ScriptedLanguageModel(["Hi."])
        let session = LanguageModelSession(model: model, tools: [AddTool()], instructions: "Be brief.")
        _ = try await session.respond(to: "Hello")
        let prompt = try #require(model.prompts.first)
        #expect(prompt.hasPrefix("<|im_start|>system\nBe brief.\n\n# Tools\n\nYou may call one or more functions to assist with the user query."))
        #expect(prompt.contains("<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"add\", \"description\": \"Adds two integers.\", \"parameters\": {"))
        #expect(prompt.hasSuffix("<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n"))
    }

    @Test func aThrowingToolGoesBackToTheModel() async throws {
        let model = ScriptedLanguageModel([Self.call("weather", #"{"city": "Oslo"}"#), "I could not get the weather."])
        let session = LanguageModelSession(model: model, tools: [FailingTool()])
        let response = try await session.respond(to: "Weather in Oslo?")
        let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.count == 1)
        #expect(outputs.first?.isError == true)
        #expect(outputs.first?.text.contains("the weather service is down") == true)
        #expect(model.prompts.last?.contains("the weather service is down") == true)
        #expect(response.content == "I could not get the weather.")
    }

    @Test func aThrowingToolCanEndTheResponseInstead() async throws {
        let model = ScriptedLanguageModel([Self.call("weather", #"{"city": "Oslo"}"#), "unused"])
        let session = LanguageModelSession(model: model, tools: [FailingTool()], toolErrorPolicy: .throwToCaller)
        await #expect {
            _ = try await session.respond(to: "Weather in Oslo?")
        } throws: { error in
            guard let error = error as? LanguageModelSession.ToolCallError else { return false }
            return error.tool.name == "weather" && error.underlyingError is FailingTool.Failure
        }
        #expect(!session.isResponding)
    }

    @Test func argumentsThatBreakTheSchemaAreReportedToTheModel() async throws {
        let model = ScriptedLanguageModel([Self.call("add", #"{"a": 5000, "b": 1}"#), "ok"])
        let session = LanguageModelSession(model: model, tools: [AddTool()])
        let response = try await session.respond(to: "add")
        let output = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }.first
        #expect(output?.isError == true)
        #expect(output?.text.contains("5000") == true)
    }

    @Test func malformedAndUnknownCallsBecomeErrorOutputs() async throws {
        let model = ScriptedLanguageModel(["<tool_call>{not json}</tool_call>\n" + Self.call("nope", "{}"), "fine"])
        let session = LanguageModelSession(model: model, tools: [AddTool()])
        let response = try await session.respond(to: "go")
        let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.count == 2)
        #expect(outputs.allSatisfy { $0.isError })
        #expect(outputs[0].text.contains("not valid JSON"))
        #expect(outputs[1].text.contains("no tool named nope"))
    }

    @Test func severalMalformedCallsInOneResponseEachGetAnError() async throws {
        // two in one round, one more in the next: every entry keeps an id of its own
        let model = ScriptedLanguageModel(["<tool_call>{not json}</tool_call>\n<tool_call>{nor this}</tool_call>", "<tool_call>[]</tool_call>", "Sorry."])
        let session = LanguageModelSession(model: model, tools: [AddTool()])
        let response = try await session.respond(to: "go")
        let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.count == 3)
        #expect(outputs.allSatisfy { $0.isError && $0.toolName.isEmpty })
        #expect(Set(session.transcript.map(\.id)).count == session.transcript.count)
        #expect(response.content == "Sorry.")
    }

    @Test func theRoundLimitEndsALoopingModel() async throws {
        let model = ScriptedLanguageModel((1...10).map { Self.call("add", #"{"a": \#($0), "b": 1}"#) })
        let session = LanguageModelSession(model: model, tools: [AddTool()], maximumToolRounds: 3)
        await #expect {
            _ = try await session.respond(to: "loop", options: .init(toolCallingMode: .required, requiredToolCallingExit: .keepRequiring))
        } throws: { error in
            guard case .toolRoundLimitReached(let rounds) = error as? LanguageModelSession.GenerationError else { return false }
            return rounds == 3
        }
        #expect(model.prompts.count == 4)
    }

    @Test func atTheRoundLimitTheModelMustAnswerWithoutTools() async throws {
        let model = ScriptedLanguageModel([Self.call("add", #"{"a": 1, "b": 1}"#), Self.call("add", #"{"a": 0, "b": 2}"#),
                                           "Two, after all that adding."])
        let session = LanguageModelSession(model: model, tools: [AddTool()], maximumToolRounds: 2)
        let response = try await session.respond(to: "1+1?", options: .init(toolCallingMode: .required, requiredToolCallingExit: .keepRequiring))
        #expect(response.content == "Two, after all that adding.")
        #expect(model.parameters.count == 3)
        #expect(model.parameters[1].grammar != nil)
        // no call can start: the only grammar is a citation's of the tool's output
        #expect(model.parameters[2].grammar?.activation == .lazy(triggers: ["["], grammarIncludesTrigger: true, tokens: []))
        #expect(model.parameters[2].stopStrings.contains("<tool_call>"))
    }

    /// One call per round by default, enforced by the round's grammar; more when asked.
    @Test(arguments: [(nil, 1), (3, 3)] as [(Int?, Int)])
    func theRoundsGrammarHoldsAsManyCallsAsTheOptionsAllow(asked: Int?, allowed: Int) async throws {
        let model = ScriptedLanguageModel([Self.call("add", #"{"a": 1, "b": 2}"#), "3"])
        let session = LanguageModelSession(model: model, tools: [AddTool()])
        var options = GenerationOptions(toolCallingMode: .required)
        if let asked { options.maximumToolCallsPerRound = asked }
        _ = try await session.respond(to: "1+2", options: options)
        let grammar = try #require(model.parameters.first?.grammar)
        let call = Self.call("add", #"{"a": 1, "b": 2}"#)
        for count in 1...(allowed + 1) {
            let text = Array(repeating: call, count: count).joined(separator: "\n")
            let accepted = try GrammarOracle.model().grammar(grammar.gbnf, root: grammar.root, accepts: text)
            #expect(accepted == (count <= allowed), "\(count) calls with at most \(allowed)")
        }
    }

    @Test func requiredRelaxesToAllowedAfterOneRound() async throws {
        let model = ScriptedLanguageModel([Self.call("add", #"{"a": 1, "b": 1}"#), "Two."])
        let session = LanguageModelSession(model: model, tools: [AddTool()])
        _ = try await session.respond(to: "1+1?", options: .init(toolCallingMode: .required))
        let grammars = model.parameters.map(\.grammar?.activation)
        #expect(grammars.count == 2)
        #expect(grammars[0] == .immediate)
        if case .lazy(let triggers, let includesTrigger, _)? = grammars[1] {
            // a call (tagged, or a bare object), or a citation of the tool's output (which is one
            // source, named after the tool)
            #expect(triggers == ["<tool_call>", "{ \"name\" : ", "["])
            #expect(includesTrigger)
        } else {
            Issue.record("second round should use the lazy grammar, got \(String(describing: grammars[1]))")
        }
    }

    @Test func disallowedOffersNoGrammarAndStopsAtACall() async throws {
        let model = ScriptedLanguageModel(["Plain answer."])
        let session = LanguageModelSession(model: model, tools: [AddTool()])
        _ = try await session.respond(to: "hi", options: .init(toolCallingMode: .disallowed))
        #expect(model.parameters.first?.grammar == nil)
        #expect(model.parameters.first?.stopStrings.contains("<tool_call>") == true)
    }

    @Test func cancellingMidToolStopsTheToolAndTheResponse() async throws {
        let slow = SlowTool()
        let model = ScriptedLanguageModel([Self.call("slow", "{}"), "never"])
        let session = LanguageModelSession(model: model, tools: [slow])
        let task = Task { try await session.respond(to: "wait") }
        while !slow.start.isSet { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await #expect {
            _ = try await task.value
        } throws: { error in
            if case .cancelled = error as? LanguageModelSession.GenerationError { return true }
            return false
        }
        #expect(slow.observedCancellation.isSet)
        #expect(!session.isResponding)
    }

    /// The first generated text is the first round's call; the answer's first text comes a
    /// round later, after the tool ran.
    @Test func theFirstGeneratedTextIsTimedApartFromTheAnswersFirstText() async throws {
        let model = ScriptedLanguageModel([Self.call("add", #"{"a": 1, "b": 2}"#), "The sum is 3."])
        let session = LanguageModelSession(model: model, tools: [AddTool()], instructions: "Use the tools.")
        let usage = try await session.respond(to: "What is 1+2?").usage
        let firstGenerated = try #require(usage.timeToFirstGeneratedText)
        let firstAnswer = try #require(usage.timeToFirstToken)
        #expect(firstGenerated < firstAnswer)
    }

    @Test func streamingSnapshotsAggregateToTheResponse() async throws {
        let text = "Lakes and waterfalls are found on three of the trails."
        let model = ScriptedLanguageModel(["<think>\nLet me think.\n</think>\n\n" + text])
        let session = LanguageModelSession(model: model)
        var snapshots: [String] = []
        let stream = session.streamResponse(to: "water?")
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        let response = try await stream.collect()
        #expect(snapshots.count > 3)
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.hasPrefix($0) })
        #expect(snapshots.last == response.content)
        #expect(response.content == text)
        #expect(!snapshots.contains { $0.contains("think") })
    }

    @Test func qwen3GetsNoThinkAndAnEmptyThinkBlock() async throws {
        let model = ScriptedLanguageModel(["<think>\n\n</think>\n\nHello!"], family: .qwen3)
        let session = LanguageModelSession(model: model, instructions: "Be kind.")
        let response = try await session.respond(to: "Hi")
        let prompt = try #require(model.prompts.first)
        #expect(prompt.contains("Be kind. /no_think<|im_end|>"))
        #expect(prompt.hasSuffix("<|im_start|>assistant\n<think>\n\n</think>\n\n"))
        #expect(response.content == "Hello!")

        let thinking = ScriptedLanguageModel(["<think>\nhmm\n</think>\n\nHi!"], family: .qwen3)
        let thinkingSession = LanguageModelSession(model: thinking, instructions: "Be kind.", thinking: true)
        #expect(try await thinkingSession.respond(to: "Hi").content == "Hi!")
        #expect(thinking.prompts.first?.contains("/no_think") == false)
        #expect(thinking.prompts.first?.hasSuffix("<|im_start|>assistant\n") == true)
    }

    @Test func aRequestThatCannotFitFailsBeforeGenerating() async throws {
        let model = ScriptedLanguageModel(["never"])
        let session = LanguageModelSession(model: model, instructions: String(repeating: "Rules. ", count: 400), contextWindow: 256)
        await #expect {
            _ = try await session.respond(to: "hi")
        } throws: { error in
            guard case .exceededContextWindowSize(let budget) = error as? LanguageModelSession.GenerationError else { return false }
            return budget.description.contains("instructions")
        }
        #expect(model.prompts.isEmpty)
    }

    @Test func oldToolOutputsAreTrimmedWhenTheTranscriptOutgrowsTheWindow() async throws {
        struct BigTool: Tool {
            struct Arguments: Generable, Codable { static let generationSchema: GenerationSchema = .object([]) }
            let name = "big"
            let description = "Returns a lot."
            func call(arguments: Arguments) async throws -> String { String(repeating: "data ", count: 300) }
        }
        // each turn: one big call (~375 tokens with the scripted counter), then an answer
        let model = ScriptedLanguageModel([Self.call("big", "{}"), "first", Self.call("big", "{}"), "second", Self.call("big", "{}"), "third"])
        let session = LanguageModelSession(model: model, tools: [BigTool()], contextWindow: 1200)
        for question in ["one", "two", "three"] {
            _ = try await session.respond(to: question, options: .init(maximumResponseTokens: 64))
        }
        let last = try #require(model.prompts.last)
        // the newest output is intact; the oldest was dropped or cut to its head
        #expect(last.components(separatedBy: "data data").count < 3 * 299)
        #expect(last.contains("three"))
        #expect(session.lastBudgetReport?.fits == true)
        #expect(session.transcript.count == 1 + 3 * 4)
    }
}

@Suite("Reading tool calls out of generated text")
struct ToolCallParsingTests {
    @Test func aCallCutOffAfterCompleteOnesIsDroppedFromTheTurn() async throws {
        let complete = SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#)
        let model = ScriptedLanguageModel([complete + "\n<tool_call>\n{\"name\": \"ad", "3"])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool()])
        let response = try await session.respond(to: "1+2")
        let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.map(\.text) == ["3"])
        let turn = response.transcriptEntries.compactMap { if case .toolCalls(let calls) = $0 { calls.rawText } else { nil } }
        #expect(turn == [complete])
    }

    @Test func aCallCutOffAloneIsReportedToTheModel() async throws {
        let model = ScriptedLanguageModel(["<tool_call>\n{\"name\": \"ad", "sorry"])
        let session = LanguageModelSession(model: model, tools: [SessionLoopTests.AddTool()])
        let response = try await session.respond(to: "1+2")
        let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.count == 1 && outputs[0].isError && outputs[0].text.contains("cut off"))
    }

    /// Records the city each call received.
    struct EchoTool: Tool {
        struct Arguments: Generable, Codable {
            var city: String
            static let generationSchema: GenerationSchema = .object([.property("city", .string(maxLength: 40))])
        }
        let name = "echo"
        let description = "Repeats a city."
        let received = Received()
        func call(arguments: Arguments) async throws -> String {
            received.cities.withLock { $0.append(arguments.city) }
            return "ok"
        }
    }

    final class Received: Sendable {
        let cities = Mutex<[String]>([])
    }

    /// The grammar lets a string hold any text, `</tool_call>` included; the call still ends at
    /// the close tag after its JSON, not inside the string.
    @Test func aStringArgumentMayContainTheCloseTag() async throws {
        let city = "Oslo</tool_call><tool_call>x"
        let arguments = JSONValue.object(["city": .string(city)]).jsonString
        let model = ScriptedLanguageModel([SessionLoopTests.call("echo", arguments) + "\n" + SessionLoopTests.call("echo", #"{"city": "Bergen"}"#), "done"])
        let tool = EchoTool()
        let session = LanguageModelSession(model: model, tools: [tool])
        let response = try await session.respond(to: "where")
        // The calls of one round run concurrently: the tool sees both, in either order; the
        // transcript keeps the order they were written in.
        #expect(tool.received.cities.withLock { $0 }.sorted() == [city, "Bergen"].sorted())
        let calls = response.transcriptEntries.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let calls) = entry { calls.calls } else { [] }
        }
        #expect(calls.map { $0.arguments["city"]?.stringValue } == [city, "Bergen"])
    }
}
