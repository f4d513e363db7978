import Foundation
import Testing
@testable import SearchIndex

/// `textContent` comparisons in query strings as Apple's File Metadata Query Expression Syntax
/// defines them: the whole text unless `w`, case-sensitive unless `c`, diacritic-sensitive unless
/// `d`, `*` any run and `?` one character — on a real index, where they go through FTS5 candidates
/// and `lantern_text_match` on the stored text.
@Suite struct TextContentMatchTests {
    static let texts: [(id: String, text: String?)] = [
        ("exact", "Paris"),
        ("lower", "paris"),
        ("accent", "Pâris"),
        ("longer", "Parisian"),
        ("inside", "Comparison"),
        ("sentence", "We met in Paris, then left."),
        ("short", "Pari"),
        ("none", nil),
        // Long enough to be stored compressed (TextCompression.minimumInput).
        ("long", String(repeating: "the river runs by the old town ", count: 100) + "and Paris at last"),
    ]

    static func index(in folder: TemporaryFolder) async throws -> SearchableIndex {
        let index = try folder.index()
        try await index.indexSearchableItems(texts.map { row in
            var set = SearchableItemAttributeSet()
            set.title = "note " + row.id
            set.textContent = row.text
            return SearchableItem(uniqueIdentifier: row.id, attributeSet: set)
        })
        return index
    }

    static let cases: [(String, Set<String>)] = [
        (#"kMDItemTextContent == "Paris""#, ["exact"]),
        (#"kMDItemTextContent == "Paris"c"#, ["exact", "lower"]),
        (#"kMDItemTextContent ==[c] "Paris""#, ["exact", "lower"]),
        (#"kMDItemTextContent == "Paris"cd"#, ["exact", "lower", "accent"]),
        (#"kMDItemTextContent == "Paris"wc"#, ["exact", "lower", "sentence", "long"]),
        (#"kMDItemTextContent ==[cdw] "paris""#, ["exact", "lower", "accent", "sentence", "long"]),
        (#"kMDItemTextContent == "Paris"w"#, ["exact", "sentence", "long"]),
        (#"kMDItemTextContent == "*Paris*""#, ["exact", "longer", "sentence", "long"]),
        (#"kMDItemTextContent == "*paris*"c"#, ["exact", "lower", "longer", "inside", "sentence", "long"]),
        (#"kMDItemTextContent == "Pari?""#, ["exact"]),
        (#"kMDItemTextContent == "Pari?"w"#, ["exact", "sentence", "long"]),
        (#"kMDItemTextContent == "Paris*""#, ["exact", "longer"]),
        (#"kMDItemTextContent == "We met in Paris, then left.""#, ["sentence"]),
        (#"kMDItemTextContent == "We met in Paris""#, []),
        (#"kMDItemTextContent == "*met in Paris*""#, ["sentence"]),
        (#"kMDItemTextContent != "Paris"c"#, ["accent", "longer", "inside", "sentence", "short", "none", "long"]),
        (#"kMDItemTextContent != "Paris"wc"#, ["accent", "longer", "inside", "short", "none"]),
        (#"kMDItemTextContent == "Paris"wc && kMDItemTitle == "note s*""#, ["sentence"]),
    ]

    @Test func queryStringsMatchAsAppleDescribes() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(in: folder)
        for (string, expected) in Self.cases {
            do {
                let query = try SearchQuery(queryString: string, limit: nil)
                let found = Set(try await index.search(query).map(\.item.uniqueIdentifier))
                #expect(found == expected, "\(string)")
            } catch {
                Issue.record("\(string): \(error)")
            }
        }
    }

    @Test func fullTextTermsStillMatchWordsLoosely() async throws {
        let folder = try TemporaryFolder()
        let index = try await Self.index(in: folder)
        // The search tool's terms are full-text search: case, diacritics and stems are folded
        // ("Paris" and "Pari" both stem to "pari").
        #expect(try await index.ids(.fullText("paris")) == ["exact", "lower", "accent", "sentence", "short", "long"])
    }

    @Test func wholeWordsNarrowThroughTheFullTextIndex() throws {
        let compiler = QueryCompiler(customKeys: [:], timeZone: Corpus.utc)
        let word = try compiler.compile(.match(.textContent, pattern: "Paris", kind: .word, options: .caseInsensitive))
        #expect(word.text.contains("fts MATCH ?") && word.text.contains("lantern_text_match("))
        #expect(word.bindings == [.text(#"body : "Paris""#), .text("Paris"), .text("cw")])
        let infix = try compiler.compile(.match(.textContent, pattern: "Paris", kind: .contains))
        #expect(!infix.text.contains("fts MATCH") && infix.text.contains("lantern_text_match("))
        #expect(infix.bindings == [.text("*Paris*"), .text("")])
    }

    @Test func candidateWordsAreOnlyWholeWords() {
        #expect(TextContentMatch.candidateWords("Paris") == ["Paris"])
        #expect(TextContentMatch.candidateWords("*Paris*").isEmpty)
        #expect(TextContentMatch.candidateWords("Pari?").isEmpty)
        #expect(TextContentMatch.candidateWords("We met in Par*") == ["We", "met", "in"])
        #expect(TextContentMatch.candidateWords("*x Paris, y*") == ["Paris"])
        #expect(TextContentMatch.candidateWords(#"a\*b"#) == ["a", "b"])
    }
}
