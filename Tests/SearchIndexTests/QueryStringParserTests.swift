import Foundation
import Testing
@testable import SearchIndex

@Suite struct QueryStringParserTests {
    let now = Date(timeIntervalSince1970: 1_714_566_600) // 2024-05-01T12:30:00Z, a Wednesday
    var parser: QueryStringParser { QueryStringParser(now: now, timeZone: Corpus.utc) }
    func day(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    @Test func applesDocumentedExamples() throws {
        #expect(try parser.parse(#"title == "Paris"cdw && InRange(completionDate, $time.today(-10), $time.today)"#)
                == .and([.match(.title, pattern: "Paris", kind: .word, options: [.caseInsensitive, .diacriticInsensitive]),
                         .inRange(.completionDate, lower: .date(try day("2024-04-21T00:00:00Z")), upper: .date(try day("2024-05-01T00:00:00Z")))]))
        #expect(try parser.parse(#"kMDItemTextContent == "*pasta*"cd"#)
                == .match(.textContent, pattern: "pasta", kind: .contains, options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try parser.parse(#"contentModificationDate >= $time.today(-1)"#)
                == .compare(.contentModificationDate, .greaterOrEqual, .date(try day("2024-04-30T00:00:00Z"))))
        #expect(try parser.parse(#"InRange(kMDItemFSCreationDate,$time.iso(2008-12-01T00:00:00Z),$time.iso(2009-01-01T00:00:00Z))"#)
                == .inRange(.contentCreationDate, lower: .date(try day("2008-12-01T00:00:00Z")),
                            upper: .date(try day("2009-01-01T00:00:00Z"))))
        #expect(try parser.parse(#"(authorNames == "Steve*"wc) && (contentType == "public.audio")"#)
                == .and([.match(.authorNames, pattern: "Steve*", kind: .word, options: .caseInsensitive), .contentType("public.audio")]))
        #expect(try parser.parse(#"** == "apple*"cd"#) == .fullText("apple", prefix: true))
        #expect(try parser.parse(#"keywords == "apple" || keywords == "pear""#)
                == .or([.match(.keywords, pattern: "apple", kind: .exact), .match(.keywords, pattern: "pear", kind: .exact)]))
        #expect(try parser.parse(#"title == "Par*""#) == .match(.title, pattern: "Par", kind: .prefix))
        #expect(try parser.parse(#"title == "a*b\*c""#) == .match(.title, pattern: #"a*b\*c"#, kind: .wildcard))
        #expect(try parser.parse(#"title != "x" && !(rating < 2.5)"#)
                == .and([.not(.match(.title, pattern: "x", kind: .exact)), .not(.compare(.rating, .less, .number(2.5)))]))
    }

    @Test func timeVariables() throws {
        func date(_ text: String) throws -> Date? {
            guard case let .compare(_, _, .date(value)) = try parser.parse("startDate > \(text)") else { return nil }
            return value
        }
        #expect(try date("$time.now") == now)
        #expect(try date("$time.now(-60)") == now.addingTimeInterval(-60))
        #expect(try date("$time.yesterday") == (try day("2024-04-30T00:00:00Z")))
        #expect(try date("$time.this_week") == (try day("2024-04-29T00:00:00Z")))
        #expect(try date("$time.this_week(-1)") == (try day("2024-04-22T00:00:00Z")))
        #expect(try date("$time.this_month(-2)") == (try day("2024-03-01T00:00:00Z")))
        #expect(try date("$time.this_year(1)") == (try day("2025-01-01T00:00:00Z")))
        #expect(try date("$time.iso(2024-02-29)") == (try day("2024-02-29T00:00:00Z")))
    }

    @Test func meaningIsASearchByMeaningAndAKeyOfThatNameStaysAComparison() throws {
        #expect(try parser.parse(#"Meaning("water getting in") && rating >= 4"#)
                == .and([.meaning("water getting in"), .compare(.rating, .greaterOrEqual, .number(4))]))
        #expect(try parser.parse(#"meaning ( 'damp patch' )"#) == .meaning("damp patch"))
        #expect(try parser.parse(#"meaning == "x""#) == .match(SearchableItemAttribute(rawValue: "meaning"), pattern: "x", kind: .exact))
    }

    @Test(arguments: [
        (#"Meaning(water)"#, 8, "in quotes"),
        (#"Meaning("  ")"#, 8, "in quotes"),
        (#"Meaning("a" "b")"#, 12, "')'"),
        (#"title == "Paris"#, 9, "closing"),
        (#"title = = "x""#, 8, "value"),
        (#"title "x""#, 6, "comparison operator"),
        (#"(rating > 2"#, 11, "')'"),
        (#"rating > 2 &&"#, 13, "attribute name"),
        (#"InRange(rating, 1)"#, 17, "','"),
        (#"startDate > $time.tomorrow"#, 18, "one of now"),
        (#"title == "x"zz"#, 12, "modifier"),
        (#"rating > 2 rating"#, 11, "'&&', '||'"),
        (#"startDate > $time.iso(May 5)"#, 22, "ISO 8601"),
        (#""#, 0, "attribute name"),
    ])
    func malformedStringsReportPositionAndExpectation(input: String, position: Int, expected: String) {
        do {
            _ = try parser.parse(input)
            Issue.record("parsed malformed input: \(input)")
        } catch {
            #expect(error.position == position, "\(input): \(error)")
            #expect(error.expected.contains(expected), "\(input): \(error)")
            #expect(error.description.contains("character \(position)"))
        }
    }

    @Test func parsedQueriesRunAgainstTheIndex() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Corpus.items())
        let query = try SearchQuery(queryString: #"title == "paris"cdw && InRange(completionDate, $time.today(-30), $time.today)"#,
                                    limit: nil, now: Corpus.base, timeZone: Corpus.utc)
        let low = Corpus.base.addingTimeInterval(-30 * 86_400)
        #expect(Set(try await index.search(query).map(\.item.uniqueIdentifier))
                == Corpus.ids { $0.title.lowercased().split(separator: " ").contains("paris") && $0.completed >= low && $0.completed <= Corpus.base })
    }
}
