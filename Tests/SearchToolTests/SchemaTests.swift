import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// The query schema per guide: its cost in the prompt, the compact sketch, and the grammar.
@Suite struct SchemaTests {
    static let guides: [Guide] = [
        .complete, Guide(level: .complete, format: .compact), .focused(), Guide(level: .focused(.items), format: .compact),
        Guide(level: .focused(.messages), format: .compact),
        Guide(level: .dynamic(GuidanceProfile(numericMatch: false, attributes: [.title, .completionDate], stages: false)), format: .compact),
        .dynamic(GuidanceProfile(attributes: [.stateOrProvince, .rating, .completionDate])),
    ]

    static func tool(_ index: SearchableIndex, _ guide: Guide, stages: [any CustomStage] = []) -> SearchTool {
        SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: guide, contactResolver: nil, customStages: stages))
    }

    /// The tool's line of the session's `<tools>` block, as the model reads it.
    static func definitionLine(of tool: SearchTool, model: LocalModel) throws -> String {
        let prompt = LanguageModelSession(model: model, tools: [tool]).systemPrompt
        return try #require(prompt.split(separator: "\n").first { $0.contains("\"name\": \"\(tool.name)\"") }.map(String.init))
    }

    @Test func definitionsMeetTheTokenGoals() async throws {
        let vocabulary = try LocalModel.vocabularyOnly(contentsOf: TestModel.url)
        let (index, _) = try await TrailCorpus.index()
        let goals: [(Guide, Int)] = [(.complete, 1_500), (Guide(level: .focused(.items), format: .compact), 300)]
        for (guide, goal) in goals {
            let line = try Self.definitionLine(of: Self.tool(index, guide), model: vocabulary)
            let tokens = try vocabulary.tokenizer.countTokens(in: line, parseSpecial: false)
            #expect(tokens <= goal, "\(guide): \(tokens) tokens")
        }
    }

    /// Everything the grammar can enforce is named in the compact description: each key, each
    /// enumerated value, each definition and each bound.
    @Test(arguments: guides.filter { $0.format == .compact })
    func compactDescriptionCarriesTheWholeSchema(guide: Guide) async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = Self.tool(index, guide, stages: [TitleWordStage()])
        #expect(!tool.includesSchemaInInstructions)
        var words: [String] = tool.parameters.definitions.map(\.name)
        func collect(_ schema: GenerationSchema) {
            switch schema.kind {
            case .object(let properties):
                for property in properties {
                    words.append(property.name + (property.isOptional ? "?" : ""))
                    collect(property.schema)
                }
            case .array(let items, let minItems, let maxItems):
                words += [minItems, maxItems].compactMap { $0.map(String.init) }
                collect(items)
            case .anyOf(let schemas), .oneOf(let schemas): schemas.forEach(collect)
            case .enumeration(let values): words += values.compactMap(\.stringValue)
            case .constant(let value): words += [value.stringValue].compactMap { $0 }
            case .string(_, let maxLength, let pattern): words += [maxLength.map(String.init), pattern].compactMap { $0 }
            case .integer(let minimum, let maximum): words += [minimum, maximum].compactMap { $0.map(String.init) }
            default: break
            }
            if let description = schema.description { words.append(description) }
        }
        collect(tool.parameters)
        tool.parameters.definitions.forEach { collect($0.schema) }
        #expect(words.count > 10)
        for word in words { #expect(tool.description.contains(word), "\(word) missing from \(tool.description)") }
    }

    @Test func structuredGuidesPutTheJSONSchemaInThePrompt() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = Self.tool(index, .complete)
        #expect(tool.includesSchemaInInstructions)
        #expect(!tool.description.contains("terms"))
    }

    /// A few-valued attribute whose every value is too long to offer (file paths in a folder
    /// index) stays an open filter: its enum would be empty and the grammar could not compile.
    @Test func anAttributeWhoseValuesAreAllTooLongStaysOpen() async throws {
        let long = String(repeating: "very long state name ", count: 5)
        let extra = (0..<3).map { number -> SearchableItem in
            var item = TrailCorpus.item(TrailCorpus.trails[number])
            item.uniqueIdentifier = "long-\(number)"
            item.attributeSet.stateOrProvince = long + "\(number)"
            return item
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-longvalues-\(UUID().uuidString)")
        let index = try SearchableIndex(url: folder.appendingPathComponent("index.sqlite"), timeZone: TrailCorpus.utc)
        try await index.indexSearchableItems(extra)
        let tool = Self.tool(index, Guide(level: .complete, format: .structured))
        let tight = await tool.parameters(for: Prompt("Which trails are in a long state?"))
        #expect(throws: Never.self) { try GrammarCompiler().toolCallGrammar(for: [.init(name: tool.name, arguments: tight)]) }
    }

    /// Each guide's open and per-question schemas compile to a grammar, and the date variables
    /// the description names are the ones the schema accepts.
    @Test(arguments: guides)
    func everyGuideCompilesAndAcceptsItsDates(guide: Guide) async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = Self.tool(index, guide)
        let tight = await tool.parameters(for: Prompt("Which trails in California did I finish last month?"))
        for schema in [tool.parameters, tight] {
            #expect(throws: Never.self) { try GrammarCompiler().toolCallGrammar(for: [.init(name: tool.name, arguments: schema)]) }
        }
        let dateAttribute = guide.level == .focused(.messages) || guide.level == .focused(.items) ? "contentCreationDate" : "completionDate"
        func call(from: String) -> JSONValue {
            .object(["query": .object(["dates": .object(["attribute": .string(dateAttribute), "from": .string(from)])])])
        }
        for accepted in ["2024-05-01", "today", "yesterday", "this_week-2", "this_month-1", "this_year+1"] {
            #expect(throws: Never.self) { try tool.parameters.validate(call(from: accepted), rootName: "arguments") }
            #expect(throws: Never.self) { try tight.validate(call(from: accepted), rootName: "arguments") }
        }
        for refused in ["now", "2024-5-1", "last_month", "this_month-1000"] {
            #expect(throws: (any Error).self) { try tool.parameters.validate(call(from: refused), rootName: "arguments") }
        }
        let output = try await tool.call(arguments: try #require(JSONValue.query(["dates": ["attribute": .string(dateAttribute), "from": "this_month-1"]])))
        #expect(output.contains("matched"))
    }
}
