import Foundation
import Testing
@testable import SearchIndex

/// Query strings as Apple's guides write them (File Metadata Query Expression Syntax, current and
/// older editions; CSSearchQuery), run against a real index of a small corpus of our own, each
/// with the items Apple's description says it matches.
@Suite struct QueryStringAppleSyntaxTests {
    static let now = Date(timeIntervalSince1970: 1_714_566_600) // 2024-05-01T12:30:00Z, a Wednesday
    static let myAttribute = CustomAttributeKey(keyName: "myAttribute")
    static let weight = CustomAttributeKey(keyName: "weight")
    static let day = 86_400.0

    struct Row {
        var id: String, title: String, authors: [String], fileName: String, type: String, size: Double
        var modified: Date, created: Date, text: String, myAttribute: String?, weight: Double?
    }

    static let rows: [Row] = [
        Row(id: "notes", title: "Paris", authors: ["Steve"], fileName: "paris-france.jpg", type: "public.jpeg", size: 2048,
            modified: now - day, created: now - 40 * day, text: "I love Paris in spring", myAttribute: "blue", weight: 3),
        Row(id: "lower", title: "paris", authors: ["steve"], fileName: "notes.txt", type: "public.plain-text", size: 1,
            modified: now - 10 * day, created: now - 400 * day, text: "paris is a city", myAttribute: "red", weight: 1),
        Row(id: "love", title: "I love Paris", authors: ["Stéve"], fileName: "I love Paris.md", type: "net.daringfireball.markdown",
            size: 0, modified: now - 35 * day, created: now - 35 * day, text: "Comparison of Pâris", myAttribute: nil, weight: nil),
        Row(id: "song", title: "Song", authors: ["Steve Jobs", "Ann"], fileName: "song.mp3", type: "public.mp3", size: 5_000_000,
            modified: now - 100 * day, created: now - 100 * day, text: "la la", myAttribute: nil, weight: nil),
        Row(id: "report", title: "Annual report", authors: ["Steven"], fileName: "2024-report.pdf", type: "com.adobe.pdf",
            size: 300_000, modified: now - 3600, created: now - 2 * day, text: "revenue grew", myAttribute: "Blue", weight: 2.5),
        Row(id: "archive", title: "Backup", authors: [], fileName: "backup.zip", type: "public.zip-archive", size: 1e9,
            modified: now - 200 * day, created: now - 200 * day, text: "", myAttribute: nil, weight: nil),
    ]

    static func items() -> [SearchableItem] {
        rows.map { row in
            var set = SearchableItemAttributeSet(contentType: row.type)
            set.title = row.title
            if !row.authors.isEmpty { set.authorNames = row.authors }
            set.displayName = row.fileName
            set.fileSize = row.size
            set.contentModificationDate = row.modified
            set.contentCreationDate = row.created
            if !row.text.isEmpty { set.textContent = row.text }
            if let key = myAttribute, let value = row.myAttribute { set.setValue(.string(value), forCustomKey: key) }
            if let key = weight, let value = row.weight { set.setValue(.number(value), forCustomKey: key) }
            return SearchableItem(uniqueIdentifier: row.id, domainIdentifier: "files", attributeSet: set)
        }
    }

    /// (query string, the items it matches). Comments name the guide's example each row follows.
    static let documented: [(String, Set<String>)] = [
        // Table 3-3, "Value comparison modifier examples", on a title.
        (#"kMDItemTitle == "Paris""#, ["notes"]),                      // not "paris" nor "I love Paris"
        (#"kMDItemTitle == "Paris"c"#, ["notes", "lower"]),            // suffix form (older guide)
        (#"kMDItemTitle ==[c] "Paris""#, ["notes", "lower"]),          // bracket form (current guide)
        (#"kMDItemTitle == "Paris"wc"#, ["notes", "lower", "love"]),
        (#"kMDItemTitle ==[wc] "Paris""#, ["notes", "lower", "love"]),
        (#"kMDItemTitle ==[c] "Paris"w"#, ["notes", "lower", "love"]), // both forms combine
        (#"kMDItemDisplayName == "Paris"wc"#, ["notes", "love"]),      // "paris-france.jpg", not "Comparison"
        (#"kMDItemFSName ==[wc] "paris""#, ["notes", "love"]),
        // "kMDItemAuthors ==[c] "Steve"" and its variants.
        (#"kMDItemAuthors == "Steve""#, ["notes"]),
        (#"kMDItemAuthors ==[c] "Steve""#, ["notes", "lower"]),
        (#"kMDItemAuthors ==[cd] "Steve""#, ["notes", "lower", "love"]),
        (#"kMDItemAuthors == "Steve"wc"#, ["notes", "lower", "song"]),
        (#"kMDItemAuthors == "Steve*""#, ["notes", "song", "report"]),
        (#"kMDItemAuthors != "Steve""#, ["lower", "love", "song", "report", "archive"]),
        // Wildcards (table 3-4) on file names.
        (#"kMDItemFSName == "*.jpg""#, ["notes"]),
        (#"kMDItemFSName == "*Paris*"cd"#, ["notes", "love"]),
        (#"kMDItemFSName == "I love Paris.md""#, ["love"]),
        (#"kMDItemFSName == 2024-report.pdf"#, ["report"]),            // an unquoted value
        (#"kMDItemTitle == "Pari?""#, ["notes"]),                      // ? is one character
        (#"kMDItemTitle == "Pari?"c"#, ["notes", "lower"]),
        (#"kMDItemFSName == "song.mp?""#, ["song"]),
        (#"kMDItemFSName == "song.m?""#, []),
        (#"kMDItemTitle == "I love Paris\?""#, []),                  // \? is a literal question mark
        // Content types: kMDItemContentType is one UTI, kMDItemContentTypeTree its conformance.
        (#"kMDItemContentType == 'public.jpeg'"#, ["notes"]),
        (#"kMDItemContentType == public.mp3"#, ["song"]),
        (#"kMDItemContentType == public.audio"#, []),
        (#"kMDItemContentTypeTree == public.audio"#, ["song"]),
        (#"kMDItemContentTypeTree = public.content"#, ["notes", "lower", "love", "song", "report"]),
        (#"kMDItemContentTypeTree == "public.image""#, ["notes"]),
        (#"kMDItemContentTypeTree == "public.text""#, ["lower", "love"]),
        (#"kMDItemContentTypeTree == "PUBLIC.Data""#, ["notes", "lower", "love", "song", "report", "archive"]),
        (#"kMDItemContentTypeTree == public.item"#, ["notes", "lower", "love", "song", "report", "archive"]),
        (#"kMDItemContentTypeTree != public.content"#, ["archive"]),
        (#"(kMDItemAuthors == "Steve"wc) && (kMDItemContentTypeTree == "public.audio")"#, ["song"]),
        // Sizes: numbers, numbers in quotes, hexadecimal, InRange.
        (#"kMDItemFSSize > "1""#, ["notes", "song", "report", "archive"]),
        (#"kMDItemFSSize>"1""#, ["notes", "song", "report", "archive"]),
        (#"kMDItemFSSize > 1"#, ["notes", "song", "report", "archive"]),
        (#"kMDItemFSSize == "2048""#, ["notes"]),
        (#"kMDItemFSSize >= 0x800"#, ["notes", "song", "report", "archive"]),
        (#"InRange(kMDItemFSSize, "1", "2048")"#, ["lower", "notes"]),
        (#"kMDItemFSSize < 1e6 && kMDItemFSSize > 0"#, ["notes", "lower", "report"]),
        // Dates: $time values and the file-system date names.
        (#"kMDItemFSContentChangeDate >= $time.today(-1)"#, ["notes", "report"]),
        (#"kMDItemFSContentChangeDate >= $time.today"#, ["report"]),
        (#"InRange(kMDItemFSContentChangeDate, $time.today(-30), $time.today)"#, ["notes", "lower"]),
        (#"kMDItemContentModificationDate > $time.this_month(-1)"#, ["notes", "lower", "report"]),
        (#"kMDItemFSCreationDate < $time.this_year"#, ["lower", "archive"]),
        (#"kMDItemFSCreationDate >= $time.this_week(-1)"#, ["report"]),
        (#"kMDItemContentCreationDate >= $time.iso(2024-04-01)"#, ["report"]),
        (#"kMDItemFSCreationDate > "2024-04-01""#, ["report"]),
        (#"kMDItemFSContentChangeDate > $time.now(-7200)"#, ["report"]),
        // Custom attributes by their key names.
        (#"myAttribute == "blue""#, ["notes"]),
        (#"myAttribute ==[c] "BLUE""#, ["notes", "report"]),
        (#"weight > 2"#, ["notes", "report"]),
        (#"weight == "1""#, ["lower"]),
        (#"InRange(weight, "2", 3)"#, ["notes", "report"]),
        // Combinations.
        (#"kMDItemTitle == "Paris"cd || kMDItemFSSize > 1000000"#, ["notes", "lower", "song", "archive"]),
        (#"!(kMDItemFSSize > 1) && kMDItemContentTypeTree == public.content"#, ["lower", "love"]),
        (#"* == "spring""#, ["notes"]),
    ]

    @Test func documentedStringsGiveApplesResults() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items())
        for (string, expected) in Self.documented {
            do {
                let query = try SearchQuery(queryString: string, limit: nil, now: Self.now, timeZone: Corpus.utc)
                let found = Set(try await index.search(query).map(\.item.uniqueIdentifier))
                #expect(found == expected, "\(string)")
            } catch {
                Issue.record("\(string): \(error)")
            }
        }
    }

    @Test func appleNamesMapToLanternAttributes() throws {
        let parser = QueryStringParser(now: Self.now, timeZone: Corpus.utc)
        let names: [(String, SearchableItemAttribute)] = [
            ("kMDItemAuthors", .authorNames), ("kMDItemFSName", .displayName), ("kMDItemFSSize", .fileSize),
            ("kMDItemFSContentChangeDate", .contentModificationDate), ("kMDItemFSCreationDate", .contentCreationDate),
            ("kMDItemDescription", .contentDescription), ("kMDItemStarRating", .rating), ("kMDItemNumberOfPages", .pageCount),
            ("kMDItemDurationSeconds", .duration), ("kMDItemRecipients", .recipientNames), ("kMDItemDateAdded", .addedDate),
        ]
        for (apple, attribute) in names {
            #expect(try parser.parse("\(apple) > 1") == .compare(attribute, .greater, .number(1)), "\(apple)")
        }
        // Every standard attribute is reachable by an Apple name or its own name.
        let appleTargets = Set(SpotlightAttributeName.mapped.compactMap { if case .attribute(let a) = $0.target { a } else { nil } })
        for (attribute, _) in SearchableItemAttribute.standard {
            #expect(appleTargets.contains(attribute), "no kMDItem name for \(attribute)")
            #expect(try parser.parse("\(attribute.rawValue) > 1") == .compare(attribute, .greater, .number(1)))
        }
    }

    @Test func unknownNamesSayWhichNamesExist() async throws {
        let parser = QueryStringParser(now: Self.now, timeZone: Corpus.utc)
        #expect {
            _ = try parser.parse(#"kMDItemTitle == "x" && kMDItemPixelHeight > 100"#)
        } throws: { error in
            guard let error = error as? QueryStringError else { return false }
            return error.position == 23 && error.found.contains("kMDItemPixelHeight") && error.expected.contains("kMDItemAuthors")
                && error.expected.contains("authorNames") && error.expected.contains("custom key")
        }
        // A name that is neither Apple's nor standard is a custom key; unknown to this index, the
        // search says so.
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items())
        await #expect(throws: SearchIndexError.unknownAttribute("elevation")) {
            try await index.search(SearchQuery(queryString: "elevation > 1", now: Self.now, timeZone: Corpus.utc))
        }
    }

    @Test(arguments: [
        (#"kMDItemAuthors ==[x] "Steve""#, 18, "modifier"),
        (#"kMDItemAuthors ==[c "Steve""#, 19, "modifier"),
        (#"kMDItemAuthors ==[c"#, 19, "']'"),
        (#"startDate > $time.today(-30d)"#, 27, "no unit letters"),
        (#"startDate > $time.this_week(2w)"#, 29, "weeks for $time.this_week"),
        (#"startDate > $time.today()"#, 24, "integer offset in days"),
        (#"startDate > $time.today(-)"#, 24, "integer offset"),
        (#"kMDItemContentTypeTree > public.image"#, 23, "== or != before a content type"),
        (#"kMDItemContentTypeTree == "public.*""#, 26, "without wildcards"),
        (#"kMDItemContentTypeTree == 3"#, 26, "bare word"),
        (#"kMDItemPixelHeight > 100"#, 0, "kMDItemFSSize"),
        (#"title == "#, 9, "value"),
        (#"title == )"#, 9, "value"),
        (#"title > "abc""#, 6, "only numbers and dates are ordered"),
        (#"title > abc"#, 6, "only numbers and dates are ordered"),
        (#"InRange(rating, "a", 2)"#, 16, "a number or $time"),
        (#"InRange(rating, 1, abc)"#, 19, "a number or $time"),
        (#"InRange(kMDItemContentTypeTree, 1, 2)"#, 30, "not '*'"),
        (#"fileSize > "1e999""#, 11, "finite"),
        (#"fileSize > 1e999"#, 11, "finite"),
    ])
    func malformedStringsAreRejectedWithAPosition(input: String, position: Int, expected: String) {
        do {
            let predicate = try QueryStringParser(now: Self.now, timeZone: Corpus.utc).parse(input)
            Issue.record("parsed malformed input \(input) as \(predicate)")
        } catch {
            #expect(error.position == position, "\(input): \(error)")
            #expect(error.expected.contains(expected), "\(input): \(error)")
        }
    }
}
