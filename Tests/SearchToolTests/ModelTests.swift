import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

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

/// The real default model writing calls under `.required`.
@Suite(.serialized) struct ModelTests {
    static let questions = [
        "Which trails in California have water features?",
        "How many trails are in Utah?",
        "Which trails did I complete this year?",
    ]

    @Test func everyCallTheModelWritesIsSchemaValidAndRuns() async throws {
        let model = try TestModel.shared()
        let (index, _) = try await TrailCorpus.index()
        for guide in [Guide(level: .dynamic(GuidanceProfile(attributes: [.stateOrProvince, .rating, .completionDate])), format: .compact)] {
            for question in Self.questions {
                let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: guide))
                let session = LanguageModelSession(model: model, tools: [tool], maximumToolRounds: 1)
                _ = try? await session.respond(to: question, options: GenerationOptions(maximumResponseTokens: 200, toolCallingMode: .required))
                let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in if case .toolCalls(let c) = entry { c.calls } else { [] } }
                let outputs = session.transcript.compactMap { entry -> Transcript.ToolOutput? in if case .toolOutput(let o) = entry { o } else { nil } }
                #expect(!calls.isEmpty, "no call for \(question)")
                for call in calls where call.toolName == tool.name {
                    #expect(throws: Never.self) { try tool.parameters.validate(call.arguments, rootName: "arguments") }
                    let vocabulary = await tool.parameters(for: Prompt(question))
                    #expect(throws: Never.self) { try vocabulary.validate(call.arguments, rootName: "arguments") }
                }
                for output in outputs { #expect(!output.isError, "\(question): \(output.text)") }
            }
        }
    }

    @Test func theModelUsesACustomStageUnderRequired() async throws {
        let model = try TestModel.shared()
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(
            sources: [TrailCorpus.source(index)],
            guide: .dynamic(GuidanceProfile(numericMatch: false, dates: false, attributes: [.title], stages: false)),
            customStages: [TitleWordStage()]))
        let listener = Task { await TrailCorpus.replies(of: tool, count: 1) }
        let session = LanguageModelSession(model: model, tools: [tool], instructions: "Use the stage title_words to score trails by title words.",
                                           maximumToolRounds: 1)
        _ = try? await session.respond(to: "Score the trails by the title words lake and falls with the title_words stage",
                                       options: GenerationOptions(maximumResponseTokens: 200, toolCallingMode: .required))
        tool.finish()
        let replies = await listener.value
        let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in if case .toolCalls(let c) = entry { c.calls } else { [] } }
        let call = try #require(calls.first)
        let stages = call.arguments["query"]?["stages"]?.arrayValue ?? []
        #expect(stages.contains { $0["stage"]?.stringValue == "title_words" }, "the model wrote \(call.arguments)")
        #expect(replies.contains { if case .scoredItems = $0.content { true } else { false } })
    }
}
