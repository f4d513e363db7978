import Foundation
import Testing
@testable import SearchIndex

/// A book's chapter page searched the way `ask --folder` searches it: a real folder, FileSource
/// refreshing it into a real index, a full-text search, and the passage that answers.
@Suite struct HTMLPassageSearchTests {
    @Test func aChapterPagesPassagesHaveItsHeadingsAndNoChrome() async throws {
        let fixture = HTMLFixture.named("book-chapter.html")
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture.url, to: scope.appendingPathComponent(fixture.file))
        let index = try folder.index()
        let report = try await FileSource(scopes: [scope]).refresh(into: index)
        #expect(report.indexed == 1)

        let hits = try await index.search(SearchQuery(.fullText("signatures honest"), snippetLength: 200))
        let hit = try #require(hits.first)
        #expect(hit.item.attributeSet.title == fixture.title)
        let match = try #require(hit.passage)
        #expect(match.passage.location.headingPath == ["Buffers and Lifetimes", "Views Across Calls"])
        #expect(match.passage.text.hasPrefix("## Views Across Calls\n\nA view can travel down into any function you call"))
        #expect(match.snippet.contains("Keeping these signatures honest is what lets the checker work one function at a time"))

        let first = try #require(try await index.passage(of: hits[0].item.uniqueIdentifier, at: .passage(0)))
        #expect(first.text.hasPrefix("# Buffers and Lifetimes\n\nEvery buffer in Kestrel belongs to exactly one scope"))
        for passage in [first.text, match.passage.text, match.snippet] {
            for chrome in fixture.chrome {
                #expect(!passage.contains(chrome), "chrome in a passage or snippet: \(chrome)")
            }
        }
    }
}
