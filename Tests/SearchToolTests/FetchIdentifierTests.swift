import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// The fetch tool's `id` is narrowed, round by round, to identifiers the search has shown.
@Suite struct FetchIdentifierTests {
    @Test func fetchIdsAreLimitedToWhatTheSearchShowed() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        let fetch = tool.fetchTool
        let before = await fetch.parameters(for: "Which trails have waterfalls?")
        #expect(before == fetch.parameters)
        #expect(await !fetch.isAvailable(for: "Which trails have waterfalls?"))

        let model = ScriptedLanguageModel([
            "<tool_call>\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": {\"terms\": [\"waterfall\"]}}}\n</tool_call>",
            "<tool_call>\n{\"name\": \"fetch_item\", \"arguments\": {\"id\": \"trail-002\"}}\n</tool_call>",
            "Eagle Falls has a creek crossing.",
        ])
        let session = LanguageModelSession(model: model, tools: [tool, fetch])
        _ = try await session.respond(to: "Which trails have waterfalls?")

        let waterfalls = TrailCorpus.trails.filter { $0.keywords.contains("waterfall") }.map(\.id)
        let after = await fetch.parameters(for: "Which trails have waterfalls?")
        for id in waterfalls { #expect(throws: Never.self) { try after.validate(["id": .string(id)]) } }
        #expect(throws: (any Error).self) { try after.validate(["id": "123456"]) }
        #expect(await fetch.isAvailable(for: "Which trails have waterfalls?"))
        // the round after the search compiled a grammar offering exactly those ids
        let grammars = model.parameters.compactMap { $0.grammar?.gbnf }
        #expect(grammars.count == 3)
        // before any search, fetch_item is not offered at all
        #expect(!grammars[0].contains("fetch_item"))
        #expect(grammars[1].contains("fetch_item"))
        #expect(waterfalls.allSatisfy { grammars[1].contains($0) })
    }
}
