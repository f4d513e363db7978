import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// An app stage over the app's own data: the elevation gain of a named trail, which the index
/// does not hold, so the answer can only have it from the stage.
struct ElevationStage: CustomStage {
    static let feet = ["Eagle Falls": 1_380, "Half Dome": 4_800, "Mount Si": 3_150, "Skyline Trail": 1_700]
    let name = "elevation_gain"
    let description = "The elevation gain in feet of the trail named."
    let inputTypes: [SearchPipelineDataType] = [.items, .scoredItems, .groupedItems, .count]
    let outputType = SearchPipelineDataType.text
    var argumentSchema: GenerationSchema {
        .object([
            .property("trail", .string(description: "The trail's name", maxLength: 40)),
            .property("unit", .string(anyOf: ["feet", "meters"]), optional: true),
        ])
    }

    /// The trail sharing the most words with the argument.
    func execute(input: SearchPipelineData, arguments: GeneratedContent) async throws -> SearchPipelineData {
        let asked = Set((arguments["trail"]?.stringValue ?? "").lowercased().split(separator: " "))
        let best = Self.feet.map { (name: $0.key, feet: $0.value, shared: asked.intersection($0.key.lowercased().split(separator: " ")).count) }
            .filter { $0.shared > 0 }.max { $0.shared < $1.shared }
        guard let best else { return .text(SearchTextResult(body: "No trail is named \(arguments["trail"]?.stringValue ?? "")")) }
        return .text(SearchTextResult(body: "\(best.name) gains \(best.feet) feet."))
    }
}

/// Custom stages' string arguments under the per-request grammar: copied from the question.
@Suite(.serialized) struct CustomStageArgumentTests {
    static func tool(_ index: SearchableIndex, restricts: Bool = true) -> SearchTool {
        SearchTool(configuration: .init(
            sources: [TrailCorpus.source(index)],
            guide: Guide(level: .dynamic(GuidanceProfile(numericMatch: false, dates: false, attributes: [.title], stages: false)), format: .compact),
            customStages: [ElevationStage(), TitleWordStage()], restrictsTermsToQuestion: restricts))
    }

    /// The stage alternatives of a query schema, by stage name.
    static func stages(in schema: GenerationSchema) -> [String: GenerationSchema] {
        guard case .object(let top) = schema.kind, case .object(let query)? = top.first?.schema.kind,
              let stages = query.first(where: { $0.name == "stages" }), case .array(let item, _, _) = stages.schema.kind else { return [:] }
        let alternatives: [GenerationSchema] = if case .oneOf(let list) = item.kind { list } else { [item] }
        var result: [String: GenerationSchema] = [:]
        for alternative in alternatives {
            guard case .object(let properties) = alternative.kind, case .constant(let name)? = properties.first?.schema.kind,
                  let arguments = properties.first(where: { $0.name == "arguments" }) else { continue }
            result[name.stringValue ?? ""] = arguments.schema
        }
        return result
    }

    @Test func freeStringsBecomeTheQuestionsWordsAndDeclaredValuesStay() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = Self.tool(index)
        let question = "How much elevation does Eagle Falls gain, in feet?"
        let schema = try #require(Self.stages(in: await tool.parameters(for: Prompt(question)))["elevation_gain"])
        guard case .object(let properties) = schema.kind, case .enumeration(let trails)? = properties.first?.schema.kind,
              case .enumeration(let units)? = properties.last?.schema.kind else {
            Issue.record("the narrowed arguments are \(schema)"); return
        }
        let offered = trails.compactMap(\.stringValue)
        #expect(offered.contains("Eagle Falls"))
        for value in offered {
            #expect(question.localizedCaseInsensitiveContains(value), "\(value) is not in the question")
            #expect(!["how", "much", "does", "in"].contains(value.lowercased()), "stop word \(value) offered")
        }
        #expect(units.compactMap(\.stringValue) == ["feet", "meters"])
        // The narrowed schema accepts a subset of the open one, and the open one stays open.
        for value in offered {
            #expect(throws: Never.self) { try tool.parameters.validate(["query": ["stages": [["stage": "elevation_gain", "arguments": ["trail": .string(value)]]]]], rootName: "arguments") }
        }
        guard case .object(let open)? = Self.stages(in: tool.parameters)["elevation_gain"]?.kind, case .string = open[0].schema.kind else {
            Issue.record("the open schema was narrowed too"); return
        }
        // Punctuation parts phrases; a long question offers a bounded list.
        let listed = try #require(Self.stages(in: await tool.parameters(for: Prompt("Compare Lost Lake, Eagle Falls and Half Dome")))["elevation_gain"])
        guard case .object(let listedProperties) = listed.kind, case .enumeration(let listedValues)? = listedProperties.first?.schema.kind else {
            Issue.record("the narrowed arguments are \(listed)"); return
        }
        let listedNames = listedValues.compactMap(\.stringValue)
        #expect(listedNames.contains("Lost Lake") && listedNames.contains("Half Dome") && listedNames.contains("Compare Lost Lake"))
        #expect(!listedNames.contains("Lake Eagle"), "\(listedNames)")
        let long = (1...120).map { "word\($0)" }.joined(separator: " ")
        let bounded = try #require(Self.stages(in: await tool.parameters(for: Prompt(long)))["elevation_gain"])
        guard case .object(let boundedProperties) = bounded.kind, case .enumeration(let boundedValues)? = boundedProperties.first?.schema.kind else {
            Issue.record("the narrowed arguments are \(bounded)"); return
        }
        #expect(boundedValues.count <= 48 && boundedValues.count >= 10, "\(boundedValues.count) values")
        let unrestricted = Self.tool(index, restricts: false)
        #expect(await unrestricted.parameters(for: Prompt(question)) == unrestricted.parameters)
    }

    @Test func aStageWhoseStringCannotBeFilledSitsOutTheRound() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = Self.tool(index)
        // Every word is a stop word: no trail name can be copied.
        let stages = Self.stages(in: await tool.parameters(for: Prompt("What is it?")))
        #expect(stages["elevation_gain"] == nil)
        #expect(stages["title_words"] == nil)
        let both = Self.stages(in: await tool.parameters(for: Prompt("Rank the Utah trails by arch")))
        #expect(Set(both.keys) == ["elevation_gain", "title_words"])
    }

    /// The real default model under `.required`, with the stage required by the grammar (see
    /// `ForcedStageTool`; whether the model adds it unasked is its choice): it names a trail in
    /// the question's words, the call is valid against the open schema, and what the stage
    /// returned for that trail, a figure only the stage knows, is the output the model reads.
    /// Which trail it named and what it answers with are the model's.
    @Test func theModelCallsTheStageWithTheQuestionsWordsAndAnswersFromIt() async throws {
        let model = try TestModel.shared()
        let (index, _) = try await TrailCorpus.index()
        let tool = Self.tool(index)
        let question = "What is the elevation gain of Half Dome?"
        #expect(ForcedStageTool.requiring("elevation_gain", in: await tool.parameters(for: Prompt(question))) != nil, "the stage is offered")
        let session = LanguageModelSession(model: model, tools: [ForcedStageTool(search: tool, stage: "elevation_gain")],
                                           instructions: "Answer with the figure the elevation_gain stage returns.", maximumToolRounds: 2)
        // 256 tokens hold the longest call the forced grammar admits, so the first one is whole
        var answered = true
        do {
            _ = try await session.respond(to: question, options: GenerationOptions(maximumResponseTokens: 256, toolCallingMode: .required))
        } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
            answered = false
        }
        tool.finish()
        let entries = Array(session.transcript)
        let calls = entries.flatMap { entry -> [Transcript.ToolCall] in if case .toolCalls(let c) = entry { c.calls } else { [] } }
        let outputs = entries.compactMap { entry -> Transcript.ToolOutput? in if case .toolOutput(let o) = entry { o } else { nil } }
        try #require(!calls.isEmpty, "no call: \(outputs.map(\.text))")
        for call in calls {
            #expect(throws: Never.self) { try tool.parameters.validate(call.arguments, rootName: "arguments") }
            let stages = call.arguments["query"]?["stages"]?.arrayValue ?? []
            let stage = try #require(stages.first { $0["stage"]?.stringValue == "elevation_gain" }, "no elevation_gain stage in \(call.arguments)")
            let trail = try #require(stage["arguments"]?["trail"]?.stringValue)
            #expect(question.localizedCaseInsensitiveContains(trail), "the model wrote \(trail)")
            // the stage's own answer for that trail is the call's output
            guard case .text(let result) = try await ElevationStage().execute(input: .items([]), arguments: try #require(stage["arguments"])) else {
                Issue.record("the stage returned no text"); continue
            }
            let output = try #require(outputs.first { $0.id == call.id })
            #expect(!output.isError, "\(output.text)")
            let ran = output.repeatedCallID.flatMap { earlier in outputs.first { $0.id == earlier } } ?? output
            #expect(ran.text.contains(result.body), "tool output: \(ran.text)")
        }
        // the loop went on from the outputs to its end: an answer after them, or the round limit
        let lastOutput = entries.lastIndex { if case .toolOutput = $0 { true } else { false } }
        let answer = entries.lastIndex { if case .response = $0 { true } else { false } }
        if answered {
            let (answerIndex, outputIndex) = (try #require(answer), try #require(lastOutput))
            #expect(answerIndex > outputIndex, "the answer came before the stage's output")
        } else {
            #expect(answer == nil)
        }
    }
}
