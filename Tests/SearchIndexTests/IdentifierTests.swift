import Foundation
import Testing
@testable import SearchIndex

/// Identifiers are kept exactly, byte for byte: two that differ only by a NUL (which SQLite's C
/// strings would end at, and which the index once turned into a space) stay two items.
@Suite struct IdentifierTests {
    static func note(_ id: String, _ text: String, domain: String? = nil) -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = text
        set.textContent = text
        return SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
    }

    @Test func identifiersDifferingByANulStayApart() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let ids = ["a\u{0}b", "a b", "a", "a\u{0}", "\u{0}a"]
        try await index.indexSearchableItems(ids.enumerated().map { Self.note($1, "word\($0)", domain: "d\u{0}\($0)") })
        #expect(try await index.count() == ids.count)
        #expect(try await index.ids(.all) == Set(ids))
        for (number, id) in ids.enumerated() {
            let fetched = try await index.fetchItems(identifiers: [id])
            #expect(fetched.map(\.uniqueIdentifier) == [id], "\(id.debugDescription)")
            #expect(fetched.first?.attributeSet.title == "word\(number)")
            #expect(fetched.first?.domainIdentifier == "d\u{0}\(number)")
            let found = try await index.search(SearchQuery(.fullText("word\(number)")))
            #expect(found.map(\.item.uniqueIdentifier) == [id])
        }
        // Replacing and deleting reach exactly the item named.
        try await index.indexSearchableItems([Self.note("a\u{0}b", "replaced")])
        try await index.deleteSearchableItems(withIdentifiers: ["a b"])
        #expect(try await index.ids(.all) == Set(ids).subtracting(["a b"]))
        #expect(try await index.fetchItems(identifiers: ["a\u{0}b"]).first?.attributeSet.title == "replaced")
        #expect(try await index.search(SearchQuery(.fullText("word0"))).isEmpty)
        #expect(try await index.search(SearchQuery(.fullText("word1"))).isEmpty)
    }

    @Test func aCorpusWithSuchIdentifiersIndexesEveryLine() async throws {
        let text = """
            {"id": "a\\u0000b", "attributes": {"title": "first"}}
            {"id": "a b", "attributes": {"title": "second"}}
            """
        let items = try CorpusReader().items(fromText: text)
        #expect(items.map(\.uniqueIdentifier) == ["a\u{0}b", "a b"])
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(items)
        #expect(try await index.count() == 2)
    }

    /// More identifiers than SQLite binds in one statement come back all the same, in order.
    @Test func fetchingTensOfThousandsOfIdentifiersReturnsEveryItemAsked() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let items = (0..<40_000).map { number in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = "item \(number)"
            return SearchableItem(uniqueIdentifier: "i\(number)", attributeSet: set)
        }
        try await index.indexSearchableItems(items)
        let asked = items.map(\.uniqueIdentifier).reversed() + ["absent"]
        let fetched = try await index.fetchItems(identifiers: Array(asked))
        #expect(fetched.map(\.uniqueIdentifier) == Array(asked.dropLast()))
    }
}
