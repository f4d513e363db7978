import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// The query language is spelled once, in the wire-name enums: every name of every enum is in
/// the schema the model is shown, and a call written with it is one the schema accepts and the
/// tool runs. A name the reader knew but the schema did not offer (or the reverse) fails here.
@Suite struct WireNameTests {
    /// Two guides that between them offer every part of the language: `.complete`, and a
    /// dynamic profile with the content type (which `.complete` folds into the text filters).
    static func tools(_ index: SearchableIndex) -> [SearchTool] {
        let profile = GuidanceProfile(people: true, contentType: true,
                                      attributes: [.title, .stateOrProvince, .rating, .completionDate])
        return [Guide.complete, .dynamic(profile)].map { guide in
            SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: guide, customStages: [TitleWordStage()]))
        }
    }

    /// The schema's property names, and the strings it enumerates, fixes or matches by pattern.
    struct Words {
        var keys: Set<String> = []
        var values: Set<String> = []
        var patterns: [String] = []

        mutating func collect(_ schema: GenerationSchema) {
            switch schema.kind {
            case .object(let properties):
                for property in properties {
                    keys.insert(property.name)
                    collect(property.schema)
                }
            case .array(let items, _, _): collect(items)
            case .anyOf(let schemas), .oneOf(let schemas): schemas.forEach { collect($0) }
            case .enumeration(let choices): values.formUnion(choices.compactMap(\.stringValue))
            case .constant(let value): values.formUnion([value.stringValue].compactMap { $0 })
            case .string(_, _, let pattern?): patterns.append(pattern)
            default: break
            }
            schema.definitions.forEach { collect($0.schema) }
        }
    }

    @Test func everyWireNameIsInTheSchema() async throws {
        let (index, _) = try await TrailCorpus.index()
        var words = Words()
        for tool in Self.tools(index) { words.collect(tool.parameters) }
        for key in QueryKey.allCases {
            #expect(words.keys.contains(key.rawValue), "no key \(key) in the query schema")
        }
        #expect(words.keys == Set(QueryKey.allCases.map(\.rawValue)).union(["words"]), "keys outside QueryKey: \(words.keys)")
        for stage in BuiltInStage.allCases { #expect(words.values.contains(stage.rawValue), "no stage \(stage)") }
        for op in FilterOperator.allCases { #expect(words.values.contains(op.rawValue), "no operator \(op)") }
        for function in StatisticFunction.allCases { #expect(words.values.contains(function.rawValue), "no function \(function)") }
        for direction in SortDirection.allCases { #expect(words.values.contains(direction.rawValue), "no order \(direction)") }
        for variable in DateVariable.allCases {
            #expect(words.patterns.contains { $0.contains("|\(variable)|") || $0.contains("(\(variable)|") || $0.contains("|\(variable))") },
                    "no date variable \(variable) in \(words.patterns)")
        }
    }

    /// One query per wire name that uses it, each valid against the open schema and run by the tool.
    static var queries: [JSONObject] {
        var queries: [JSONObject] = []
        for op in FilterOperator.allCases {
            let filter: JSONValue = switch op.kind {
            case .text: ["attribute": "stateOrProvince", "op": .string(op.rawValue), "value": "Utah"]
            case .number: ["attribute": "rating", "op": .string(op.rawValue), "value": 3]
            case .person: ["attribute": "authorNames", "op": .string(op.rawValue), "value": "me"]
            }
            queries.append(["filters": [filter]])
        }
        for stage in BuiltInStage.allCases {
            let written: JSONValue = switch stage {
            case .count: ["stage": "count"]
            case .groupBy: ["stage": "groupBy", "attribute": "completionDate", "dateComponent": "month"]
            case .statistic: ["stage": "statistic", "function": "avg", "attribute": "rating"]
            case .table: ["stage": "table", "columns": ["title", "rating"]]
            case .score: ["stage": "score", "attribute": "rating", "order": "ascending"]
            }
            #expect(written["stage"]?.stringValue == stage.rawValue)
            queries.append(["terms": ["trail"], "stages": [written], "limit": 5, "label": "Trails"])
        }
        for function in StatisticFunction.allCases {
            queries.append(["stages": [["stage": "groupBy", "attribute": "stateOrProvince"],
                                       ["stage": "statistic", "function": .string(function.rawValue), "attribute": "rating"]]])
        }
        for direction in SortDirection.allCases {
            queries.append(["sort": ["attribute": "rating", "order": .string(direction.rawValue)], "contentType": "public.text"])
        }
        for variable in DateVariable.allCases {
            queries.append(["dates": ["attribute": "completionDate", "from": .string("\(variable)-1"), "to": .string(variable.rawValue)]])
        }
        queries.append(["stages": [["stage": "title_words", "arguments": ["words": ["lake"]]]]])
        return queries
    }

    @Test func theToolRunsWhatTheSchemaDescribes() async throws {
        let (index, _) = try await TrailCorpus.index()
        for tool in Self.tools(index) {
            for query in Self.queries {
                let arguments: JSONValue = ["query": .object(query)]
                guard (try? tool.parameters.validate(arguments, rootName: "arguments")) != nil else { continue }
                let output = try await tool.call(arguments: try #require(JSONValue.query(query)))
                #expect(output.contains("matched"), "\(query): \(output)")
            }
        }
        // Every query is accepted by at least one of the two schemas.
        for query in Self.queries {
            let accepted = Self.tools(index).contains { (try? $0.parameters.validate(["query": .object(query)], rootName: "arguments")) != nil }
            #expect(accepted, "no schema accepts \(query)")
        }
    }

    /// A word outside the language is refused by the schema and by the tool alike.
    @Test(arguments: [
        ["filters": [["attribute": "rating", "op": "!=", "value": 3]]],
        ["stages": [["stage": "statistic", "function": "average", "attribute": "rating"]]],
        ["stages": [["stage": "median", "attribute": "rating"]]],
        ["dates": ["attribute": "completionDate", "from": "last_month"]],
    ] as [JSONObject])
    func wordsOutsideTheLanguageAreRefused(query: JSONObject) async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .complete))
        #expect(throws: (any Error).self) { try tool.parameters.validate(["query": .object(query)], rootName: "arguments") }
        let arguments = try #require(JSONValue.query(query))
        await #expect(throws: SearchToolError.self) { try await tool.call(arguments: arguments) }
    }
}
