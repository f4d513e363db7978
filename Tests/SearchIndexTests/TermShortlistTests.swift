import Foundation
import Testing
@testable import SearchIndex

/// A one-word search ranks from the word's shortlist (`TermShortlist`, kept by the writer as FTS5
/// indexes and deletes words) instead of scoring every item holding the word. Its results must be
/// FTS5's own exact ranking, item for item and score for score, through inserts, batches, deletes
/// that wear shortlists down until they are rebuilt, replacements, a failed write, a reopen and
/// a delete-all.
struct TermShortlistTests {
    /// Words from a skewed vocabulary, so common words are held by most of 1,500 items with counts
    /// and lengths that vary; "sedge" is only ever in titles, which weigh 8 times a body word.
    static func items(_ numbers: Range<Int>, seed: UInt64 = 1) -> [SearchableItem] {
        let vocabulary = ["heron", "reed", "marsh", "tide", "egret", "mud", "creek", "willow", "otter", "lichen",
                          "fern", "moss", "stone", "larch", "kestrel", "vole", "plover", "sedge"]
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func word() -> String { vocabulary[min(next(vocabulary.count - 1), next(vocabulary.count - 1))] }
        return numbers.map { number in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = ((0..<(1 + next(3))).map { _ in word() } + (next(9) == 0 ? ["sedge"] : [])).joined(separator: " ")
            set.textContent = (0..<(4 + next(40))).map { _ in word() }.joined(separator: " ")
            return SearchableItem(uniqueIdentifier: "n\(number)", domainIdentifier: number % 2 == 0 ? "even" : "odd", attributeSet: set)
        }
    }

    static let words = ["heron", "reed", "marsh", "egret", "otter", "plover", "sedge", "herons"]

    /// For each word and page: the shortlist answers (it must within the depth every shortlist
    /// keeps) and agrees with FTS5 ranking every match; so does the public search, and its count.
    func expectShortlistsRankExactly(_ index: SearchableIndex, words: [String] = Self.words,
                                     pages: [(limit: Int, offset: Int)] = [(10, 0), (5, 7), (24, 0)],
                                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reader = try SQLiteDatabase(path: index.fileURL.path, readOnly: true)
        let executor = QueryExecutor(database: reader, compiler: QueryCompiler(customKeys: [:], timeZone: index.timeZone),
                                     timeZone: index.timeZone, hideExpiredAt: nil)
        let identifiers = Dictionary(uniqueKeysWithValues: try reader.query("SELECT rowid, identifier FROM items") { ($0.integer(0), $0.text(1) ?? "") })
        for word in words {
            let everyMatch = try await index.search(SearchQuery(.fullText(word), limit: 10_000, ranking: .mostRecent(matches: 1 << 40)))
            for (limit, offset) in pages {
                let expected = everyMatch.dropFirst(offset).prefix(limit).map { ($0.item.uniqueIdentifier, $0.score ?? 0) }
                let page = try await index.searchCountingFoundItems(SearchQuery(.fullText(word), limit: limit, offset: offset))
                #expect(page.foundItemCount == everyMatch.count, sourceLocation: sourceLocation)
                #expect(page.hits.map(\.item.uniqueIdentifier) == expected.map(\.0), "\(word) \(limit)+\(offset)", sourceLocation: sourceLocation)
                #expect(page.hits.map { $0.score ?? 0 } == expected.map(\.1), "\(word) scores", sourceLocation: sourceLocation)

                let shortlisted = try executor.rankedFromShortlist(oneWord: word, first: limit + offset)
                if limit + offset <= TermShortlist.guaranteedDepth {
                    #expect(shortlisted != nil, "\(word): no shortlist answered", sourceLocation: sourceLocation)
                }
                guard let shortlisted else { continue }
                #expect(shortlisted.itemCount == everyMatch.count, "\(word): count", sourceLocation: sourceLocation)
                let direct = shortlisted.ranks.dropFirst(offset).prefix(limit)
                #expect(direct.map { identifiers[$0.rowid] ?? "?" } == expected.map(\.0), "\(word): shortlist order", sourceLocation: sourceLocation)
                #expect(direct.map(\.score) == expected.map(\.1), "\(word): shortlist scores", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func oneWordSearchesRankFromShortlistsExactlyAsFTS5Does() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.beginBatch()
        try await index.indexSearchableItems(Self.items(0..<1_000))
        try await index.endBatch(clientState: Data())
        for start in stride(from: 1_000, to: 1_500, by: 100) { try await index.indexSearchableItems(Self.items(start..<(start + 100))) }
        try await expectShortlistsRankExactly(index)

        // Delete the top items of the common words again and again: members go, depths fall,
        // and shortlists are rebuilt from FTS5.
        for round in 0..<4 {
            var doomed = Set<String>()
            for word in ["heron", "reed", "sedge"] {
                let top = try await index.search(SearchQuery(.fullText(word), limit: 8))
                doomed.formUnion(top.map(\.item.uniqueIdentifier))
            }
            try await index.deleteSearchableItems(withIdentifiers: Array(doomed))
            // Replace others with new text, inside a batch.
            try await index.beginBatch()
            try await index.indexSearchableItems(Self.items((round * 50)..<(round * 50 + 40), seed: UInt64(round + 9)))
            try await index.endBatch(clientState: Data())
        }
        try await expectShortlistsRankExactly(index)

        // A write that fails part-way leaves every shortlist as it was.
        var bad = Self.items(2_000..<2_050)
        bad[25] = SearchableItem(uniqueIdentifier: "", domainIdentifier: nil, attributeSet: SearchableItemAttributeSet())
        await #expect(throws: SearchIndexError.self) { try await index.indexSearchableItems(bad) }
        try await index.deleteSearchableItems(withDomainIdentifiers: ["odd"])
        try await expectShortlistsRankExactly(index)

        // Shortlists are in the file.
        let reopened = try folder.index()
        try await expectShortlistsRankExactly(reopened)
    }

    /// Inside a batch, deletes and replacements reach FTS5 (and the shortlists) only when the
    /// batch's words are flushed; a call that fails in between is undone without losing the
    /// earlier calls' changes, also after a delete-all.
    @Test func aFailedCallInsideABatchKeepsTheBatchsEarlierChanges() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items(0..<600))
        var bad = Self.items(100..<140, seed: 5)
        bad[20] = SearchableItem(uniqueIdentifier: "", domainIdentifier: nil, attributeSet: SearchableItemAttributeSet())

        try await index.beginBatch()
        let top = try await index.search(SearchQuery(.fullText("heron"), limit: 10)).map(\.item.uniqueIdentifier)
        try await index.deleteSearchableItems(withIdentifiers: top)
        try await index.indexSearchableItems(Self.items(200..<300, seed: 3))
        await #expect(throws: SearchIndexError.self) { try await index.indexSearchableItems(bad) }
        try await index.indexSearchableItems(Self.items(600..<700))
        try await index.endBatch(clientState: Data())
        try await expectShortlistsRankExactly(index)

        try await index.beginBatch()
        try await index.deleteAllSearchableItems()
        try await index.indexSearchableItems(Self.items(0..<300, seed: 4))
        await #expect(throws: SearchIndexError.self) { try await index.indexSearchableItems(bad) }
        try await index.endBatch(clientState: Data())
        #expect(try await index.count() == 300)
        try await expectShortlistsRankExactly(index)
        try await expectShortlistsRankExactly(try folder.index())
    }

    /// A damaged stored shortlist fails neither searches (they rank every match) nor writes: the
    /// next write of the word rebuilds it, and its item count, from FTS5.
    @Test func aDamagedShortlistIsRebuiltByTheNextWriteOfItsWord() async throws {
        let folder = try TemporaryFolder()
        try await folder.index().indexSearchableItems(Self.items(0..<400))
        let file = try SQLiteDatabase(path: folder.url.appendingPathComponent("test.sqlite").path, readOnly: false)
        try file.run("UPDATE term_shortlists SET data = x'0102', count = 3 WHERE term = 'heron'")

        let index = try folder.index()
        let executor = QueryExecutor(database: file, compiler: QueryCompiler(customKeys: [:], timeZone: index.timeZone),
                                     timeZone: index.timeZone, hideExpiredAt: nil)
        #expect(try executor.rankedFromShortlist(oneWord: "heron", first: 10) == nil)
        let everyMatch = try await index.search(SearchQuery(.fullText("heron"), limit: 10_000, ranking: .mostRecent(matches: 1 << 40)))
        #expect(try await index.search(SearchQuery(.fullText("heron"), limit: 10)).map(\.item.uniqueIdentifier)
                == everyMatch.prefix(10).map(\.item.uniqueIdentifier))

        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.textContent = "heron"
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "new", domainIdentifier: nil, attributeSet: set)])
        #expect(try file.query("SELECT count FROM term_shortlists WHERE term = 'heron'") { $0.integer(0) } == [Int64(everyMatch.count + 1)])
        try await expectShortlistsRankExactly(index)
    }

    /// A write whose words cannot be counted (here the shortlists' table is gone) fails with a
    /// typed error and leaves the recorder clear, so the next write works once the file is sound.
    @Test func aWriteThatCannotCountItsWordsFailsAloneAndLaterWritesWork() async throws {
        let folder = try TemporaryFolder()
        try await folder.index().indexSearchableItems(Self.items(0..<50))
        let index = try folder.index()
        let file = try SQLiteDatabase(path: folder.url.appendingPathComponent("test.sqlite").path, readOnly: false)
        try file.execute("DROP TABLE term_shortlists")
        await #expect(throws: SearchIndexError.self) { try await index.indexSearchableItems(Self.items(50..<60)) }
        try file.execute("CREATE TABLE term_shortlists(term TEXT PRIMARY KEY, count INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID")
        try await index.indexSearchableItems(Self.items(50..<60))
        #expect(try await index.count() == 60)
    }

    @Test func deletingEverythingEmptiesTheShortlists() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items(0..<200))
        try await index.deleteAllSearchableItems()
        let reader = try SQLiteDatabase(path: index.fileURL.path, readOnly: true)
        #expect(try reader.query("SELECT count(*) FROM term_shortlists") { $0.integer(0) } == [0])
        try await index.indexSearchableItems(Self.items(0..<300))
        try await expectShortlistsRankExactly(index)
    }
}
