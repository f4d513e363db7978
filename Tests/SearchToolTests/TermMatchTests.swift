import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// How the search matches a model's terms: one of five letters or more also finds the words it
/// begins ("water", "waterfall"), a shorter one whole words only, as the index stems them.
@Suite struct TermMatchTests {
    func found(_ terms: [String]) async throws -> Set<String> {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        let result = try await tool.result(for: try #require(JSONValue.query(["terms": .array(terms.map { .string($0) })])))
        let items: [CitableSource] = result.sources.filter { $0.kind == .item }
        return Set(items.map(\.id))
    }

    @Test func aLongTermFindsTheWordsItBegins() async throws {
        // no note says "water"; two have a waterfall
        #expect(try await found(["water"]) == ["trail-002", "trail-006"])
        // every term still has to match: "views" is said beside a waterfall once
        #expect(try await found(["water", "views"]) == ["trail-002"])
    }

    @Test func aShortTermMatchesWholeWordsOnly() async throws {
        // "Rainforest along the river": "rain" is not a word of it
        #expect(try await found(["rain"]).isEmpty)
        #expect(try await found(["rainforest"]) == ["trail-008"])
    }
}
