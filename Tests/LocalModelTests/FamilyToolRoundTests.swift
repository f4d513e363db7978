import Foundation
import Testing
@testable import LocalModel

/// Every family runs a tool round in its own layout: on its tiny model through the real engine
/// (rendering, the grammar's trigger and call, the reader, the tool, the answer round), and,
/// for the families with a layout of their own, written byte for byte as the family's real
/// template writes the same round (llama-server's rendering of it).
@Suite("Tool rounds in every family's layout", .serialized)
struct FamilyToolRoundTests {
    /// A search whose query the grammar keeps short, recording what it was called with.
    struct TrailSearch: Tool {
        struct Arguments: Generable, Codable {
            var query: String
            static let generationSchema: GenerationSchema = .object([.property("query", .string(maxLength: 24))])
        }
        let name = "trail_search"
        let description = "Searches the trail notes."
        let received = ToolCallParsingTests.Received()
        func call(arguments: Arguments) async throws -> String {
            received.cities.withLock { $0.append(arguments.query) }
            return "Maple Pass: a lake at mile 3."
        }
    }

    @Test(arguments: TemplateFamily.allCases)
    func aRequiredCallRunsAndTheAnswerRoundFollows(family: TemplateFamily) async throws {
        let model = try TinyFamilyModelTests.model(family)
        let tool = TrailSearch()
        let session = LanguageModelSession(model: model, tools: [tool], instructions: "You answer from the notes.", maximumToolRounds: 1)
        // the tiny vocabulary spells most text byte by byte: a call takes about a hundred tokens
        let options = GenerationOptions(maximumResponseTokens: 200, toolCallingMode: .required)
        do {
            _ = try await session.respond(to: "Which trails have water?", options: options)
        } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
            // random weights may open another call in the answer round: the typed end of the loop
        }
        let entries = session.transcript.entries
        let calls = entries.compactMap { if case .toolCalls(let turn) = $0 { turn } else { nil } }
        let outputs = entries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        // the grammar made the random model write one valid call in the family's syntax
        #expect(calls.count == 1 && calls[0].calls.map(\.toolName) == ["trail_search"], "\(family): \(entries)")
        #expect(calls.first?.rawText.contains(model.chatTemplate.toolLayout.callSyntax.trigger) == true, "\(family): \(calls)")
        #expect(outputs.count == 1 && outputs.allSatisfy { !$0.isError }, "\(family): \(outputs.map(\.text))")
        let queries = tool.received.cities.withLock { $0 }
        #expect(queries.count == 1 && queries.allSatisfy { $0.count <= 24 }, "\(queries)")
    }

    /// The families whose layout Lantern writes as their own templates do, and whose templates
    /// llama-server can render a tool round with.
    static let ownLayouts: [TemplateFamily] = [.llama3, .mistralV3, .mistralV7, .chatml, .qwen3]

    @Test(arguments: ownLayouts)
    func aToolRoundIsWrittenAsTheFamilysTemplateWritesIt(family: TemplateFamily) async throws {
        let template = ChatTemplate(template: try family.template(), architecture: family.architecture)
        let syntax = template.toolLayout.callSyntax
        let arguments: JSONValue = ["query": "lake trail"]
        let callText = syntax.text(of: [("trail_search", arguments)])
        let model = ScriptedLanguageModel([callText, "Maple Pass has a lake.", "Not that I know."], chatTemplate: template)
        let tool = TrailSearch()
        // thinking on: the real template is rendered without Lantern's /no_think switch
        let session = LanguageModelSession(model: model, tools: [tool], instructions: "You answer from the notes.", thinking: true)
        _ = try await session.respond(to: "Which trails have water?")
        _ = try await session.respond(to: "And in Oregon?")
        let lantern = try #require(model.prompts.last)

        // the same conversation as a client of llama-server sends it; where calls carry an id,
        // `text(of:)` gives the first call its position in nine digits
        let callID = callText.contains("\"id\"") ? "000000001" : "call12345"
        let definition = ToolDefinition(name: tool.name, description: tool.description, parameters: TrailSearch.Arguments.generationSchema.jsonSchema)
        let messages: [JSONValue] = [
            ["role": "system", "content": "You answer from the notes."],
            ["role": "user", "content": "Which trails have water?"],
            ["role": "assistant", "content": nil, "tool_calls": [[
                "id": .string(callID), "type": "function", "function": ["name": "trail_search", "arguments": .string(arguments.jsonString)],
            ]]],
            ["role": "tool", "tool_call_id": .string(callID), "content": "Maple Pass: a lake at mile 3."],
            ["role": "assistant", "content": "Maple Pass has a lake."],
            ["role": "user", "content": "And in Oregon?"],
        ]
        let server = try await LlamaServerTemplateReference.shared(family)
        let reference = try await server.prompt(messages: messages, tools: [definition.functionObject], templateArguments: ["date_string": "26 Jul 2024"])
        #expect(lantern == reference, "\(family)\n--- Lantern:\n\(lantern)\n--- the template:\n\(reference)")
    }
}
