import Foundation
import Testing
@testable import SearchIndex

/// Text that would be SQL or FTS5 syntax is searched for, never executed.
@Suite struct InjectionTests {
    static let hostile = [#""x" OR 1=1 --"#, "NEAR(", #"unbalanced " quote"#, "'; DROP TABLE items; --", "title:*", "a AND NOT b", "^start", "{title}: x", "*", "\u{0}nul"]

    @Test(arguments: hostile)
    func hostileTextIsSearchedForNotExecuted(text: String) async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Corpus.items())
        var set = SearchableItemAttributeSet()
        set.title = text
        set.textContent = "payload " + text
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: text, attributeSet: set)])
        let words = text.unicodeScalars.split { !$0.properties.isAlphabetic && $0.properties.numericType == nil }.map { String(String.UnicodeScalarView($0)).lowercased() }
        // A NUL in attribute text is stored as a space; the identifier keeps it (IdentifierTests).
        let stored = text.replacingOccurrences(of: "\u{0}", with: " ")
        let fullText = try await index.ids(.fullText(text))
        if words.isEmpty {
            #expect(fullText.isEmpty)
        } else {
            #expect(fullText.contains(text), "the hostile item itself is found")
            #expect(fullText.count < 6, "the input did not turn into a match-everything expression")
        }
        #expect(try await index.ids(.match(.title, pattern: stored, kind: .exact)) == [text])
        #expect(try await index.ids(.match(.title, pattern: stored, kind: .contains, options: .caseInsensitive)).contains(text))
        #expect(try await index.count() == 6, "no table was dropped or emptied")
        let literal = StringPattern.escape(stored).replacingOccurrences(of: "\"", with: "\\\"")
        let parsed = try QueryStringParser().parse("title == \"\(literal)\"")
        #expect(try await index.ids(parsed) == [text])
    }
}
