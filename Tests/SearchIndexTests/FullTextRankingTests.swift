import Foundation
import Testing
@testable import SearchIndex

/// `FullTextRanking.mostRecent(matches:)` ranks only the newest matches; `.exact` (the default) ranks all.
struct FullTextRankingTests {
    /// 40 items holding "heron" between 1 and 6 times among filler, indexed in order h0…h39, so the
    /// most recently indexed are the highest numbers; 10 more without the word.
    static func items() -> [SearchableItem] {
        (0..<50).map { number in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = "note \(number)"
            let herons = number < 40 ? 1 + (number * 7) % 6 : 0
            let filler = (0..<(5 + (number * 5) % 11)).map { "reed\($0 % 4)" }
            set.textContent = (Array(repeating: "heron", count: herons) + filler).joined(separator: " ")
            return SearchableItem(uniqueIdentifier: "h\(number)", domainIdentifier: nil, attributeSet: set)
        }
    }

    func ids(_ index: SearchableIndex, _ query: SearchQuery) async throws -> [String] {
        try await index.search(query).map(\.item.uniqueIdentifier)
    }

    @Test func boundedRankingIsTheExactRankingOfTheNewestMatches() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items())
        let allRanked = try await ids(index, SearchQuery(.fullText("heron"), limit: 100))
        #expect(allRanked.count == 40)
        #expect(try await ids(index, SearchQuery(.fullText("heron"), limit: 5)) == Array(allRanked.prefix(5)),
                "exact is the default")

        let newest = Set((28..<40).map { "h\($0)" })
        let expected = Array(allRanked.filter(newest.contains).prefix(5))
        let bounded = try await ids(index, SearchQuery(.fullText("heron"), limit: 5, ranking: .mostRecent(matches: 12)))
        #expect(bounded == expected)
        #expect(bounded != Array(allRanked.prefix(5)), "the corpus must make the bound matter")

        let generous = try await ids(index, SearchQuery(.fullText("heron"), limit: 5, ranking: .mostRecent(matches: 40)))
        #expect(generous == Array(allRanked.prefix(5)), "a bound at or above the match count ranks exactly")
    }

    @Test func aReplacedItemCountsAsNewlyIndexed() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let items = Self.items()
        try await index.indexSearchableItems(items)
        try await index.indexSearchableItems([items[0]])
        let bounded = try await ids(index, SearchQuery(.fullText("heron"), limit: 40, ranking: .mostRecent(matches: 1)))
        #expect(bounded == ["h0"])
    }
}
