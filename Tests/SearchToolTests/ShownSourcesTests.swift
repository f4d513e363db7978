import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// The sources the search and fetch tools attach to their results (issue 24): exactly the items
/// the model was shown, with the text it read of them.
@Suite struct ShownSourcesTests {
    @Test func aSearchAttachesTheShownRowsWithTheTextTheyShow() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index, fetch: [.title, .rating, .textContent])],
                                                   maximumResponseSize: 400))
        let result = try await tool.result(for: try #require(JSONValue.query(["limit": 12])))
        let shown = result.text.split(separator: "\n").compactMap { line in
            (try? JSONValue(parsing: String(line)))?.objectValue?["id"]?.stringValue
        }
        #expect(!shown.isEmpty && shown.count < 12, "the size cap leaves rows out: \(result.text)")
        // the rows the cap left out are no sources
        #expect(result.sources.map(\.id) == shown)
        for source in result.sources {
            let trail = try #require(TrailCorpus.trails.first { $0.id == source.id })
            // result rows carry no body (it comes through fetch), so the title is all the text shown
            #expect(!result.text.contains(trail.notes))
            #expect(source.text == trail.name, "the title, not the rating")
            #expect(source.location == nil)
        }
    }

    @Test func anAggregateAttachesItsOwnResultAndAFetchAttachesWhatTheModelRead() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .complete))
        let count = try await tool.result(for: try #require(JSONValue.query(["stages": [["stage": "count"]]])))
        // no item row: the tool's own result, a sentence the output holds verbatim
        let sentence = "\(TrailCorpus.trails.count) items match."
        #expect(count.sources.map(\.kind) == [.result] && count.sources.first?.text == sentence)
        #expect(count.text.contains(sentence))
        let groups = try await tool.result(for: try #require(JSONValue.query(["stages": [["stage": "groupBy", "attribute": "stateOrProvince"]]])))
        let groupText = try #require(groups.sources.first { $0.kind == .result }).text
        for line in groupText.split(separator: "\n") { #expect(groups.text.contains(line) && line.hasSuffix(".")) }
        #expect(groupText.contains("California: "))

        let id = try #require(TrailCorpus.trails.first?.id)
        let fetched = try await tool.fetchTool.result(for: .init(["id": .string(id)] as JSONValue))
        #expect(fetched.sources == [CitableSource(id: id, text: fetched.text)])
        let missing = try await tool.fetchTool.result(for: .init(["id": "trail-nowhere"] as JSONValue))
        #expect(missing.sources.isEmpty)
    }
}
