import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// A stage the app registers: scores items by how many of the given words their title holds.
struct TitleWordStage: CustomStage {
    let name = "title_words"
    let description = "Scores results by how many of the words appear in their title."
    let inputTypes: [SearchPipelineDataType] = [.items]
    let outputType = SearchPipelineDataType.scoredItems
    var argumentSchema: GenerationSchema {
        .object([.property("words", .array(of: .string(maxLength: 20), minItems: 1, maxItems: 3))])
    }
    func execute(input: SearchPipelineData, arguments: GeneratedContent) async throws -> SearchPipelineData {
        let words = (arguments["words"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() }
        return .scoredItems(input.items.map { item in
            let title = item.attributeSet.title?.lowercased() ?? ""
            return ScoredSearchableItem(item: item, score: Double(words.filter(title.contains).count))
        })
    }
}

/// The real default model writing calls under `.required`. What the model writes (which
/// terms, filters and stages, how many calls) changes with the CPU kernels ggml picks, so these
/// tests check what holds whatever it writes: every call valid against the open schema and the
/// request's narrowed one, and every output either results or a typed error the model can act on.
@Suite(.serialized) struct ModelTests {
    static let questions = [
        "Which trails in California have water features?",
        "How many trails are in Utah?",
        "Which trails did I complete this year?",
    ]

    static func entries<T>(_ session: LanguageModelSession, _ pick: (Transcript.Entry) -> [T]) -> [T] {
        session.transcript.flatMap(pick)
    }

    static func calls(_ session: LanguageModelSession) -> [Transcript.ToolCall] {
        entries(session) { if case .toolCalls(let turn) = $0 { turn.calls } else { [] } }
    }

    static func outputs(_ session: LanguageModelSession) -> [Transcript.ToolOutput] {
        entries(session) { if case .toolOutput(let output) = $0 { [output] } else { [] } }
    }

    /// What a search tool's call may return when it fails: one of `SearchToolError`'s messages
    /// (a query the schema allows but the index cannot run, such as stages in an order whose
    /// data do not fit), or the session's report of a call the token limit cut off. Never a
    /// schema violation, an unknown tool or an unreadable call.
    static func isTypedFailure(_ output: Transcript.ToolOutput) -> Bool {
        ["Error: Invalid query: ", "Error: The stage ", "Error: The source ", "Error: the call was cut off before </tool_call>"]
            .contains { output.text.hasPrefix($0) }
    }

    static func isCutOff(_ output: Transcript.ToolOutput) -> Bool {
        output.text.hasPrefix("Error: the call was cut off before </tool_call>")
    }

    @Test func everyCallTheModelWritesIsSchemaValidAndRuns() async throws {
        let model = try TestModel.shared()
        let (index, _) = try await TrailCorpus.index()
        for guide in [Guide(level: .dynamic(GuidanceProfile(attributes: [.stateOrProvince, .rating, .completionDate])), format: .compact)] {
            for question in Self.questions {
                let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: guide))
                let session = LanguageModelSession(model: model, tools: [tool], maximumToolRounds: 1)
                _ = try? await session.respond(to: question, options: GenerationOptions(maximumResponseTokens: 200, toolCallingMode: .required))
                let calls = Self.calls(session)
                let outputs = Self.outputs(session)
                // the required round is a call; only the token limit can cut it off before it parses
                #expect(session.transcript.contains { if case .toolCalls = $0 { true } else { false } }, "no call round for \(question)")
                #expect(!calls.isEmpty || outputs.contains(where: Self.isCutOff), "no call for \(question)")
                for call in calls {
                    #expect(call.toolName == tool.name)
                    #expect(throws: Never.self) { try tool.parameters.validate(call.arguments, rootName: "arguments") }
                    let vocabulary = await tool.parameters(for: Prompt(question))
                    #expect(throws: Never.self) { try vocabulary.validate(call.arguments, rootName: "arguments") }
                }
                for output in outputs { #expect(!output.isError || Self.isTypedFailure(output), "\(question): \(output.text)") }
            }
        }
    }

    /// An app's stage is offered in the request's schema and so in its grammar; written (the
    /// grammar requires it here, so the test does not rest on the model choosing it), it is
    /// valid against the open schema, takes its words from the question, and runs on the
    /// search's items.
    @Test func theModelUsesACustomStageUnderRequired() async throws {
        let model = try TestModel.shared()
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(
            sources: [TrailCorpus.source(index)],
            guide: .dynamic(GuidanceProfile(numericMatch: false, dates: false, attributes: [.title], stages: false)),
            customStages: [TitleWordStage()]))
        let question = "Score the trails by the title words lake and falls with the title_words stage"

        let offered = await tool.parameters(for: Prompt(question))
        let stage = try #require(CustomStageArgumentTests.stages(in: offered)["title_words"], "title_words is not offered")
        #expect(stage != CustomStageArgumentTests.stages(in: tool.parameters)["title_words"], "the words are narrowed to the question's")
        let grammar = try GrammarCompiler().toolCallGrammar(for: [.init(name: tool.name, arguments: offered)])
        #expect(grammar.gbnf.contains("title_words"))
        let forced = try #require(ForcedStageTool.requiring("title_words", in: offered))
        #expect(throws: Never.self) { try GrammarCompiler().toolCallGrammar(for: [.init(name: tool.name, arguments: forced)]) }

        let listener = Task { await TrailCorpus.replies(of: tool, count: .max) }
        let session = LanguageModelSession(model: model, tools: [ForcedStageTool(search: tool, stage: "title_words")],
                                           instructions: "Use the stage title_words to score trails by title words.", maximumToolRounds: 1)
        // 256 tokens hold the longest call the forced grammar admits, so the first one is whole
        _ = try? await session.respond(to: question, options: GenerationOptions(maximumResponseTokens: 256, toolCallingMode: .required))
        tool.finish()
        let replies = await listener.value
        let calls = Self.calls(session)
        let outputs = Self.outputs(session)
        try #require(!calls.isEmpty, "no call: \(outputs.map(\.text))")
        var wordLists: [[String]] = []
        for call in calls {
            #expect(throws: Never.self) { try tool.parameters.validate(call.arguments, rootName: "arguments") }
            let stages = call.arguments["query"]?["stages"]?.arrayValue ?? []
            #expect(stages.count == 1 && stages.first?["stage"]?.stringValue == "title_words", "the model wrote \(call.arguments)")
            let words = (stages.first?["arguments"]?["words"]?.arrayValue ?? []).compactMap(\.stringValue)
            #expect(!words.isEmpty)
            for word in words { #expect(question.localizedCaseInsensitiveContains(word), "\(word) is not in the question") }
            wordLists.append(words.map { $0.lowercased() })
            let output = try #require(outputs.first { $0.id == call.id })
            #expect(!output.isError, "\(output.text)")
            if output.repeatedCallID == nil { #expect(output.text.contains("title_words result:"), "\(output.text)") }
        }
        // each query ends with the stage's scored items: each title scored by the words it holds
        let scored = replies.compactMap { reply -> [ScoredSearchableItem]? in if case .scoredItems(let items) = reply.content { items } else { nil } }
        #expect(!scored.isEmpty, "no scored reply in \(replies.map(\.content))")
        for items in scored {
            #expect(!items.isEmpty)
            let matches = wordLists.contains { words in
                items.allSatisfy { item in
                    let title = item.item.attributeSet.title?.lowercased() ?? ""
                    return item.score == Double(words.filter(title.contains).count)
                }
            }
            #expect(matches, "scores \(items.map { ($0.item.attributeSet.title ?? "", $0.score) }) for words \(wordLists)")
        }
    }
}
