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

    /// Any of two words, one in every item and one in a single late item: BM25 puts the item
    /// holding the rare word first, where a condition over the items gave index order.
    @Test func anyOfTheWordsRanksTheRarerWordFirst() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items())
        var rare = SearchableItemAttributeSet(contentType: "public.text")
        rare.textContent = "reed0 bittern reed1 reed2"
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "bittern", domainIdentifier: nil, attributeSet: rare)])
        let anyWord = QueryPredicate.or([.fullText("reed0"), .fullText("bittern")])
        let ranked = try await index.search(SearchQuery(anyWord, limit: 3))
        #expect(ranked.first?.item.uniqueIdentifier == "bittern", "\(ranked.map(\.item.uniqueIdentifier))")
        #expect(ranked.allSatisfy { $0.score != nil })
        #expect(try await index.count(where: anyWord) == 51)
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

    /// A query of words alone takes the fast path (FTS5 ranks, no join); add a filter every item
    /// passes and it takes the joined one. Both must give the same items, scores, order (equal
    /// scores by indexing order), pages and count.
    @Test func wordsAloneRankAndCountAsTheyDoBesideAFilter() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let twins = (0..<5).map { number in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = "twin"
            set.textContent = "heron reed0 reed1"
            return SearchableItem(uniqueIdentifier: "t\(number)", domainIdentifier: nil, attributeSet: set)
        }
        try await index.indexSearchableItems(Array(Self.items().prefix(20)) + twins + Array(Self.items().suffix(30)))
        let words = QueryPredicate.fullText("heron")
        let filtered = QueryPredicate.and([words, .contentType("public.text")])

        let fast = try await index.search(SearchQuery(words, limit: 100))
        let joined = try await index.search(SearchQuery(filtered, limit: 100))
        #expect(fast.count == 45)
        #expect(fast.map(\.item.uniqueIdentifier) == joined.map(\.item.uniqueIdentifier))
        #expect(fast.map(\.score) == joined.map(\.score))
        let twinOrder = fast.map(\.item.uniqueIdentifier).filter { $0.hasPrefix("t") }
        #expect(twinOrder == ["t0", "t1", "t2", "t3", "t4"])
        let twinScores = Set(fast.filter { $0.item.uniqueIdentifier.hasPrefix("t") }.compactMap(\.score))
        #expect(twinScores.count == 1, "the twins must tie for the order to be tested")

        var paged: [String] = []
        for offset in stride(from: 0, to: 45, by: 7) {
            paged += try await ids(index, SearchQuery(words, limit: 7, offset: offset))
        }
        #expect(paged == fast.map(\.item.uniqueIdentifier))
        #expect(try await index.count(where: words) == 45)
        #expect(try await index.count(where: filtered) == 45)
        #expect(try await index.count(where: .fullText("nothingmatches")) == 0)

        // A page that counts what the query found: the fast path counts while it ranks, the
        // others count beside the search; both give the page `search` gives and the full count.
        for query in [SearchQuery(words, limit: 7, offset: 14), SearchQuery(filtered, limit: 7, offset: 14),
                      SearchQuery(words, limit: 7, ranking: .mostRecent(matches: 10)), SearchQuery(.fullText("reed2"), limit: 3),
                      SearchQuery(.fullText("nothingmatches"), limit: 3), SearchQuery(.contains(.keywords, "none"), limit: 3)] {
            let page = try await index.searchCountingFoundItems(query)
            #expect(page.hits == (try await index.search(query)))
            #expect(page.foundItemCount == (try await index.count(where: query.predicate)), "\(query.predicate)")
        }
        #expect(try await index.searchCountingFoundItems(SearchQuery(words, limit: 7, offset: 14)).foundItemCount == 45)
    }
}
