import Foundation
import Testing
@testable import SearchIndex

/// Passages: how long text is split, that each passage is found on its own with its place, and
/// that replacing or deleting an item leaves none of its passages behind.
@Suite struct PassageTests {
    /// Varied filler prose (a fixed generator, so every run writes the same text): sentences of
    /// 6–16 words from a list none of the tests' marker words are in.
    static func filler(sentences: Int, seed: UInt64) -> String {
        let words = ["valve", "gauge", "morning", "north", "ridge", "copper", "annual", "service", "window", "kitchen",
                     "logbook", "weather", "station", "reading", "level", "stream", "survey", "panel", "bracket", "corridor",
                     "summer", "winter", "engineer", "timber", "stone", "garden", "meter", "filter", "cable", "ladder"]
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<sentences).map { _ in
            let count = 6 + next(11)
            let sentence = (0..<count).map { _ in words[next(words.count)] }.joined(separator: " ")
            return sentence.prefix(1).uppercased() + sentence.dropFirst() + "."
        }.joined(separator: " ")
    }

    static func item(_ id: String, _ text: String, type: String = "public.plain-text", title: String? = nil) -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: type)
        set.title = title ?? id
        set.textContent = text
        return SearchableItem(uniqueIdentifier: id, domainIdentifier: "docs", attributeSet: set)
    }

    @Test func longTextSplitsAtBoundariesIntoBoundedPassagesThatCoverIt() {
        var text = "# Manual\n\nIntro paragraph. " + Self.filler(sentences: 4, seed: 1) + "\n\n"
        for chapter in 1...6 {
            text += "## Chapter \(chapter)\n\n"
            for section in 1...3 {
                text += "### Part \(chapter).\(section)\n\n"
                // One paragraph far longer than a passage, then short ones.
                text += Self.filler(sentences: section == 1 ? 40 : 5, seed: UInt64(chapter * 10 + section)) + "\n\n"
                text += Self.filler(sentences: 3, seed: UInt64(chapter * 100 + section)) + "\n\n"
            }
        }
        let spans = PassageSplitter.spans(of: text, markdown: true)
        let bytes = Array(text.utf8)
        #expect(spans.count > 20)
        var previousEnd = 0
        for span in spans {
            #expect(span.length <= PassageSplitter.maximumBytes)
            #expect(span.start >= previousEnd, "passages overlap or go backwards")
            // Never mid-word: each end touches whitespace or the text's end.
            #expect(span.start == 0 || bytes[span.start - 1] == 0x20 || bytes[span.start - 1] == 0x0A)
            #expect(span.end == bytes.count || bytes[span.end] == 0x20 || bytes[span.end] == 0x0A)
            // The lines are those of the text.
            let firstLine = bytes[..<span.start].filter { $0 == 0x0A }.count + 1
            #expect(span.location.lines.lowerBound == firstLine)
            previousEnd = span.end
        }
        // Every visible character is in a passage.
        let covered = spans.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }.joined(separator: " ")
        #expect(covered.split(whereSeparator: \.isWhitespace) == text.split(whereSeparator: \.isWhitespace))
        // Heading paths: the passage holding "### Part 4.2" is under Manual > Chapter 4 > Part 4.2.
        let marker = Array("### Part 4.2".utf8)
        let offset = (0...(bytes.count - marker.count)).first { Array(bytes[$0..<$0 + marker.count]) == marker } ?? -1
        let holding = spans.first { $0.start <= offset && offset < $0.end }
        #expect(holding?.location.headingPath == ["Manual", "Chapter 4", "Part 4.2"])
        // A heading starts a passage: no passage holds two chapter headings.
        for span in spans {
            let passage = String(decoding: bytes[span.start..<span.end], as: UTF8.self)
            #expect(passage.components(separatedBy: "## Chapter").count <= 2)
        }
    }

    @Test func aLongParagraphIsCutAtASentenceEndNotAtAnAbbreviation() {
        // one paragraph past the maximum; its second sentence has full stops after abbreviations
        // where no sentence ends, closer to the limit than the real end of the first
        let clause = "the crew at Mt. Tom measured approx. 3.5 km of tread, e.g. the part below the saddle, and "
        let first = "In June " + String(repeating: clause, count: 14) + "signed it off."
        let second = "Then " + String(repeating: clause, count: 9) + "logged it."
        let text = first + " " + second
        #expect(text.utf8.count > PassageSplitter.maximumBytes, "the fixture must need a cut")
        let bytes = Array(text.utf8)
        let passages = PassageSplitter.spans(of: text, markdown: false).map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
        #expect(passages == [first, second])
    }

    @Test func aSnippetStartsWithItsSentenceAndMarksOnlyACutEnd() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let fact = "Oksana Petrenko replaced the relief valve."
        try await index.indexSearchableItems([Self.item("log", Self.filler(sentences: 8, seed: 3) + " " + fact + " " + Self.filler(sentences: 8, seed: 4))])
        let hits = try await index.search(SearchQuery(.fullText("petrenko"), snippetLength: 160))
        let snippet = try #require(hits.first?.passage?.snippet)
        #expect(snippet.hasPrefix(fact), "the snippet was: \(snippet)")
        #expect(snippet.hasSuffix("…") && snippet.utf8.count <= 160 + "…".utf8.count, "the window is cut at a word: \(snippet)")
        // a window that ends where a sentence ends is not marked as cut
        let short = try #require(try await index.search(SearchQuery(.fullText("petrenko"), snippetLength: fact.utf8.count + 1)).first?.passage?.snippet)
        #expect(short == fact, "the snippet was: \(short)")
    }

    @Test func pageBreaksAreBoundariesAndNumberThePages() {
        let pages = (1...12).map { "Page \($0) text. " + Self.filler(sentences: $0 % 3 == 0 ? 30 : 4, seed: UInt64($0)) }
        let text = pages.joined(separator: "\n\u{0C}")
        let bytes = Array(text.utf8)
        let spans = PassageSplitter.spans(of: text, markdown: false)
        for span in spans {
            let feedsBefore = bytes[..<span.start].filter { $0 == 0x0C }.count
            #expect(span.location.page == feedsBefore + 1)
            #expect(!bytes[span.start..<span.end].contains(0x0C), "a passage crosses a page break")
        }
        #expect(Set(spans.compactMap(\.location.page)) == Set(1...12))
    }

    @Test func shortTextIsOnePassageAndStoresNone() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems([Self.item("note", "The boiler kept dropping below one bar because the expansion vessel had lost its charge.")])
        let hits = try await index.search(SearchQuery(.fullText("expansion vessel"), snippetLength: 200))
        let match = try #require(hits.first?.passage)
        #expect(match.passage.index == 0 && match.passage.count == 1)
        #expect(match.snippet.contains("expansion vessel had lost its charge"))
        #expect(match.matchedWords == ["expansion", "vessel"])
        #expect(try await index.passages(matching: "expansion").isEmpty, "a short item has no stored passages")
    }

    @Test func aFactDeepInALongItemIsItsBestPassageWithABoundedSnippet() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let fact = "The pressure relief valve was replaced by Oksana Petrenko after it wept onto the zinc flashing."
        var paragraphs = (0..<60).map { Self.filler(sentences: 6, seed: UInt64($0)) }
        paragraphs[47] += " " + fact
        try await index.indexSearchableItems([Self.item("log", paragraphs.joined(separator: "\n\n"))])
        let hits = try await index.search(SearchQuery(.fullText("petrenko flashing"), snippetLength: 160))
        let match = try #require(hits.first?.passage)
        #expect(match.passage.count > 10)
        #expect(match.passage.text.contains(fact))
        #expect(match.snippet.utf8.count <= 160 + "……".utf8.count)
        #expect(match.snippet.contains("Petrenko"))
        #expect(match.snippet.contains("flashing"))
        #expect(match.matchedWords == ["petrenko", "flashing"])
        // The same passage through fetch-by-words and by index.
        let around = try #require(try await index.passage(of: "log", at: .matching("zinc flashing")))
        #expect(around.index == match.passage.index)
        let byIndex = try #require(try await index.passage(of: "log", at: .passage(match.passage.index)))
        #expect(byIndex.text == match.passage.text)
        // Stems match: "replacing valves" finds "replaced ... valve".
        let stemmed = try await index.passages(matching: "replacing valves petrenko")
        #expect(stemmed.first?.passage.text.contains(fact) == true)
    }

    @Test func replacingAndDeletingAnItemRemovesItsPassages() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let long = (0..<40).map { Self.filler(sentences: 6, seed: UInt64($0)) }
        func text(_ marker: String) -> String {
            var paragraphs = long
            paragraphs[30] += " The marker is \(marker)."
            return paragraphs.joined(separator: "\n\n")
        }
        try await index.indexSearchableItems([Self.item("doc", text("zephyrine"))])
        #expect(try await index.passages(matching: "zephyrine").count == 1)
        try await index.indexSearchableItems([Self.item("doc", text("quillwort"))])
        #expect(try await index.passages(matching: "zephyrine").isEmpty)
        #expect(try await index.passages(matching: "quillwort").count == 1)
        try await index.deleteSearchableItems(withIdentifiers: ["doc"])
        #expect(try await index.passages(matching: "quillwort").isEmpty)
        // Nothing of the passages is left in SQLite: no rows, no words.
        let database = try SQLiteDatabase(path: index.fileURL.path, readOnly: true)
        #expect(try database.query("SELECT count(*) FROM passages") { $0.integer(0) }.first == 0)
        #expect(try database.query("SELECT count(*) FROM passage_fts WHERE passage_fts MATCH 'quillwort OR zephyrine OR valve'") { $0.integer(0) }.first == 0)
    }

    @Test func aFactOnPage40OfAnIndexedPDFIsFoundWithItsPage() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        let pages = (1...50).map { number -> [String] in
            var lines = (0..<12).map { Self.filler(sentences: 1, seed: UInt64(number * 100 + $0)) }
            if number == 40 { lines[7] = "Torque the flange bolts of the heat exchanger to 47 newton metres." }
            return lines
        }
        try FileSourceTests.pdf(pages: pages).write(to: scope.appendingPathComponent("manual.pdf"))
        let index = try folder.index()
        let report = try await FileSource(scopes: [scope]).refresh(into: index)
        #expect(report.indexed == 1)
        let hits = try await index.search(SearchQuery(.fullText("flange torque"), snippetLength: 200))
        let match = try #require(hits.first?.passage)
        #expect(match.passage.location.page == 40)
        #expect(match.snippet.contains("47 newton metres"))
        let page = try #require(try await index.passage(of: match.passage.itemIdentifier, at: .page(40)))
        #expect(page.text.contains("heat exchanger"))
        #expect(page.location.page == 40)
        await #expect(throws: SearchIndexError.self) { _ = try await index.passage(of: match.passage.itemIdentifier, at: .page(51)) }
    }

    @Test func aChangedFileGetsItsNewPassagesOnRefreshAndNothingOfTheOld() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        let file = scope.appendingPathComponent("log.pdf")
        func write(factOnPage factPage: Int, fact: String) throws {
            let pages = (1...20).map { number -> [String] in
                var lines = (0..<10).map { Self.filler(sentences: 1, seed: UInt64(number * 100 + $0)) }
                if number == factPage { lines[3] = fact }
                return lines
            }
            try FileSourceTests.pdf(pages: pages).write(to: file)
        }
        try write(factOnPage: 15, fact: "The anemometer cups were replaced after the gale.")
        let index = try folder.index()
        let source = FileSource(scopes: [scope])
        _ = try await source.refresh(into: index)
        #expect(try await index.passages(matching: "anemometer").first?.passage.location.page == 15)
        // The file changes (size and time): its passages are replaced, the others untouched.
        try write(factOnPage: 6, fact: "The hygrometer was recalibrated against the sling psychrometer in the hut.")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file.path)
        let report = try await source.refresh(into: index)
        #expect(report.indexed == 1)
        #expect(try await index.passages(matching: "anemometer").isEmpty)
        #expect(try await index.passages(matching: "hygrometer psychrometer").first?.passage.location.page == 6)
    }

    @Test func aPlaceTheItemDoesNotHaveIsATypedError() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems([Self.item("note", "Short note without pages.")])
        do {
            _ = try await index.passage(of: "note", at: .page(2))
            Issue.record("a page of a text without pages was returned")
        } catch {
            guard case let .passageNotFound(identifier, _, count, pages) = error else { throw error }
            #expect(identifier == "note" && count == 1 && pages == nil)
            #expect(error.description.contains("passages 0-0"))
        }
        #expect(try await index.passage(of: "missing", at: .passage(0)) == nil)
    }
}
