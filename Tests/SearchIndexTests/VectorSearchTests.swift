import Foundation
import Testing
@testable import SearchIndex

/// Search by meaning and hybrid search, with the concept embedder: a paraphrase finds its
/// note, filters hold on the vector side, fusion follows reciprocal rank, counts stay the
/// full-text match's, and a reader's vectors follow writes.
@Suite struct VectorSearchTests {
    static func index(_ folder: TemporaryFolder) async throws -> SearchableIndex {
        let index = try folder.index(embedder: ConceptEmbedder())
        try await index.indexSearchableItems(Notes.all)
        try await index.embedPendingItems()
        return index
    }

    static func identifiers(_ hits: [SearchHit]) -> [String] { hits.map(\.item.uniqueIdentifier) }

    @Test func aParaphraseFindsItsNoteByMeaningAndHybridButNotByWords() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(folder)
        #expect(Self.identifiers(try await index.search(SearchQuery(.meaning("moisture leaking")))).first == "damp")
        // the query string's own way to say it
        #expect(Self.identifiers(try await index.search(SearchQuery(queryString: #"Meaning("moisture leaking")"#))).first == "damp")
        // On an index with vectors a words query is hybrid, so the same words find it too.
        #expect(Self.identifiers(try await index.search(SearchQuery(.fullText("moisture leaking")))).first == "damp")
        // Without an embedder the words query is full text only, and finds nothing.
        let plain = try TemporaryFolder().index()
        try await plain.indexSearchableItems(Notes.all)
        #expect(try await plain.search(SearchQuery(.fullText("moisture leaking"))).isEmpty)
        await #expect(throws: SearchIndexError.noEmbedder(doing: "A search by meaning")) { try await plain.search(SearchQuery(.meaning("moisture"))) }
    }

    @Test func reciprocalRankFusionAddsOneOverSixtyPlusRank() {
        let fused = RankFusion.fuse([["a", "b", "c"], ["c", "a"]])
        #expect(fused.map(\.key) == ["a", "c", "b"])
        #expect(fused.map(\.score) == [1.0 / 61 + 1.0 / 62, 1.0 / 63 + 1.0 / 61, 1.0 / 62])
    }

    @Test func hybridRanksAWordMatchThatIsAlsoNearInMeaningFirst() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(folder)
        // "garage" matches the car note by words and by meaning; the boiler note only by meaning
        // ("heating"), the rest by neither.
        let hits = try await index.search(SearchQuery(.fullText("garage heating")))
        #expect(Self.identifiers(hits).prefix(2) == ["boiler", "car"] || Self.identifiers(hits).prefix(2) == ["car", "boiler"])
        let both = try await index.search(SearchQuery(.fullText("garage")))
        #expect(Self.identifiers(both).first == "car")
        #expect(both.first?.score == 1.0 / 61 + 1.0 / 61)
    }

    @Test func anyOfSeveralWordsIsFusedWithMeaningAsTheWordsAre() async throws {
        // An OR of words (a search tool's fall back to any of the terms) is the query's words:
        // the items that hold none of them rank by meaning beside it and say so, with how near
        // they are, and the count stays the full-text match's.
        let folder = try TemporaryFolder()
        let index = try await Self.index(folder)
        let page = try await index.searchCountingFoundItems(SearchQuery(.or([.fullText("radiator"), .fullText("zebra")])))
        #expect(page.foundItemCount == 1)
        #expect(Self.identifiers(page.hits).first == "boiler")
        #expect(page.hits.first?.isNearInMeaningOnly == false)
        #expect(page.hits.count == Notes.all.count)
        #expect(page.hits.dropFirst().allSatisfy { $0.isNearInMeaningOnly && $0.nearness != nil })
    }

    @Test func filtersApplyToTheVectorSide() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(folder)
        let meaning = try await index.search(SearchQuery(.and([.meaning("leak"), .domain("house")])))
        #expect(Self.identifiers(meaning) == ["boiler"])
        let hybrid = try await index.search(SearchQuery(.and([.fullText("leak"), .not(.domain("notes"))])))
        #expect(Self.identifiers(hybrid) == ["boiler"])
        await #expect(throws: SearchIndexError.self) { try await index.search(SearchQuery(.or([.meaning("leak"), .domain("house")]))) }
    }

    @Test func countsStayTheFullTextMatch() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(folder)
        let page = try await index.searchCountingFoundItems(SearchQuery(.fullText("garage")))
        #expect(page.foundItemCount == 1)
        #expect(page.hits.count == Notes.all.count)
        #expect(try await index.count(where: .fullText("garage")) == 1)
        #expect(try await index.count(where: .and([.meaning("garage"), .domain("notes")])) == 3)
    }

    @Test func aReadersVectorsFollowWrites() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(folder)
        #expect(Self.identifiers(try await index.search(SearchQuery(.meaning("rain seeping")))).first == "damp")
        try await index.indexSearchableItems([Notes.item("roof", title: "Roof", text: "Rain seeping, wet ceiling, water everywhere.")])
        try await index.embedPendingItems()
        #expect(Self.identifiers(try await index.search(SearchQuery(.meaning("rain seeping")))).first == "roof")
        try await index.deleteSearchableItems(withIdentifiers: ["roof"])
        #expect(!Self.identifiers(try await index.search(SearchQuery(.meaning("rain seeping")))).contains("roof"))
    }

    @Test func theSnippetIsTheItemsPassageNearestInMeaning() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder())
        var parts = (1...5).map { "## Part \($0)\n\n" + PassageTests.filler(sentences: 30, seed: UInt64($0)) }
        parts[3] = "## Part 4\n\nThe cellar was wet: moisture seeping through the wall after rain."
        try await index.indexSearchableItems([PassageTests.item("manual", parts.joined(separator: "\n\n"), type: "net.daringfireball.markdown")])
        try await index.embedPendingItems()
        let hit = try #require(try await index.search(SearchQuery(.meaning("damp"), snippetLength: 200)).first)
        #expect(hit.passage?.passage.text.contains("moisture seeping") == true)
    }

    @Test func aShortNotesSnippetShowsItsSentenceNearestInMeaning() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder())
        let sentences = [
            "We drove up early on Saturday and parked by the old mill at the end of the lane near the church.",
            "The walk itself was long and flat, with a picnic stop beside the village green at noon.",
            "On the way back the cottage by the ford had a moisture stain seeping under its front door.",
            "We finished with tea in the café before the evening traffic made the road slow again.",
        ]
        try await index.indexSearchableItems([Notes.item("walk", title: "Village walk", text: sentences.joined(separator: " "))])
        try await index.embedPendingItems()
        let hit = try #require(try await index.search(SearchQuery(.meaning("damp"), snippetLength: 120)).first)
        let snippet = try #require(hit.passage?.snippet)
        #expect(snippet.contains("moisture stain"), "the snippet was: \(snippet)")
        #expect(!snippet.contains("old mill"))
        #expect(hit.isNearInMeaningOnly)
    }
}
