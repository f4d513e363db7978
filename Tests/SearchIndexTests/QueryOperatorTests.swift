import Foundation
import Testing
@testable import SearchIndex

/// Each operator against the small corpus; expectations are computed from `Corpus.rows` in Swift.
@Suite struct QueryOperatorTests {
    let folder: TemporaryFolder
    let index: SearchableIndex

    init() async throws {
        (folder, index) = try await Corpus.freshIndex()
    }

    @Test func numberAndDateComparisonsAndRanges() async throws {
        for op in [ComparisonOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual] {
            let expected = Corpus.ids { row in
                switch op {
                case .equal: row.rating == 4
                case .notEqual: row.rating != 4
                case .less: row.rating < 4
                case .lessOrEqual: row.rating <= 4
                case .greater: row.rating > 4
                case .greaterOrEqual: row.rating >= 4
                }
            }
            #expect(try await index.ids(.compare(.rating, op, .number(4))) == expected, "rating \(op.rawValue) 4")
        }
        let cut = Corpus.base.addingTimeInterval(-20 * 86_400)
        #expect(try await index.ids(.compare(.completionDate, .greater, .date(cut))) == Corpus.ids { $0.completed > cut })
        let low = Corpus.base.addingTimeInterval(-75 * 86_400)
        #expect(try await index.ids(.inRange(.completionDate, lower: .date(low), upper: .date(cut)))
                == Corpus.ids { $0.completed >= low && $0.completed <= cut })
        #expect(try await index.ids(.inRange(.rating, lower: .number(3), upper: .number(4))) == Corpus.ids { (3...4).contains($0.rating) })
        #expect(try await index.ids(.inRange(Corpus.distance!.attribute, lower: .number(3), upper: .number(6)))
                == Corpus.ids { (3...6).contains($0.distance) })
        #expect(try await index.ids(.compare(Corpus.distance!.attribute, .greater, .number(4))) == Corpus.ids { $0.distance > 4 })
    }

    @Test func stringMatchKindsAndOptions() async throws {
        let fold: (String) -> String = { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        #expect(try await index.ids(.match(.title, pattern: "Paris walk", kind: .exact)) == Corpus.ids { $0.title == "Paris walk" })
        #expect(try await index.ids(.match(.title, pattern: "paris", kind: .prefix, options: .caseInsensitive))
                == Corpus.ids { $0.title.lowercased().hasPrefix("paris") })
        #expect(try await index.ids(.match(.title, pattern: "Paris", kind: .prefix)) == Corpus.ids { $0.title.hasPrefix("Paris") })
        #expect(try await index.ids(.match(.title, pattern: "lee", kind: .contains, options: [.caseInsensitive, .diacriticInsensitive]))
                == Corpus.ids { fold($0.title).contains("lee") })
        #expect(try await index.ids(.match(.title, pattern: "lee", kind: .contains)) == Corpus.ids { $0.title.contains("lee") })
        #expect(try await index.ids(.match(.title, pattern: "creme", kind: .word, options: [.caseInsensitive, .diacriticInsensitive]))
                == Corpus.ids { fold($0.title).split(separator: " ").contains("creme") })
        #expect(try await index.ids(.match(.title, pattern: "m*", kind: .word, options: .caseInsensitive))
                == Corpus.ids { $0.title.lowercased().split(separator: " ").contains { $0.hasPrefix("m") } })
        #expect(try await index.ids(.match(.stateOrProvince, pattern: "ile-de-france", kind: .exact, options: [.caseInsensitive, .diacriticInsensitive]))
                == Corpus.ids { $0.state == "Île-de-France" })
        #expect(try await index.ids(.match(.title, pattern: "*u*e*", kind: .wildcard)) == Corpus.ids {
            $0.title.range(of: "^.*u.*e.*$", options: .regularExpression) != nil })
        #expect(try await index.ids(.match(.textContent, pattern: "summit", kind: .word)) == Corpus.ids { $0.body.contains("summit") })
    }

    @Test func keywordsContentTypeDomainAndExists() async throws {
        #expect(try await index.ids(.contains(.keywords, "trail")) == Corpus.ids { $0.keywords.contains("trail") })
        #expect(try await index.ids(.match(.keywords, pattern: "CITY", kind: .exact, options: .caseInsensitive))
                == Corpus.ids { $0.keywords.contains("city") })
        #expect(try await index.ids(.contentType("public.plain-text")) == Corpus.ids { $0.type == "public.plain-text" })
        #expect(try await index.ids(.domain("trips")) == Corpus.ids { $0.domain.hasPrefix("trips.") })
        #expect(try await index.ids(.domain("trips.usa")) == Corpus.ids { $0.domain == "trips.usa" })
        #expect(try await index.ids(.exists(.rating)) == Corpus.ids { _ in true })
        #expect(try await index.ids(.exists(.dueDate)).isEmpty)
    }

    @Test func fullTextIsRankedAndCombinesWithAndOrNot() async throws {
        let hits = try await index.search(SearchQuery(.fullText("paris"), limit: 10))
        #expect(Set(hits.map(\.item.uniqueIdentifier)) == Corpus.ids { ($0.title + " " + $0.body).lowercased().contains("paris") })
        #expect(hits.allSatisfy { ($0.score ?? 0) > 0 })
        // A title hit outranks a body hit (title weighs 8, body 1).
        var inTitle = SearchableItemAttributeSet(), inBody = SearchableItemAttributeSet()
        inTitle.title = "Zephyr"
        inTitle.textContent = "unrelated words about weather"
        inBody.title = "Other"
        inBody.textContent = "a zephyr mentioned once in words"
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "body", attributeSet: inBody),
                                              SearchableItem(uniqueIdentifier: "title", attributeSet: inTitle)])
        let ranked = try await index.search(SearchQuery(.fullText("zephyr")))
        #expect(ranked.map(\.item.uniqueIdentifier) == ["title", "body"])
        #expect((ranked.first?.score ?? 0) > (ranked.last?.score ?? 0))
        try await index.deleteSearchableItems(withIdentifiers: ["title", "body"])
        #expect(try await index.ids(.fullText("mus", prefix: true)) == ["d"])
        #expect(try await index.ids(.and([.fullText("trail"), .compare(.rating, .greaterOrEqual, .number(4))]))
                == Corpus.ids { $0.keywords.contains("trail") && $0.rating >= 4 })
        #expect(try await index.ids(.or([.contains(.keywords, "dessert"), .compare(.rating, .less, .number(3))]))
                == Corpus.ids { $0.keywords.contains("dessert") || $0.rating < 3 })
        #expect(try await index.ids(.not(.domain("trips"))) == Corpus.ids { !$0.domain.hasPrefix("trips") })
        #expect(try await index.ids(.and([])) == Corpus.ids { _ in true })
        #expect(try await index.ids(.or([])).isEmpty)
    }

    /// Words match in their other English forms: a question says "lakes" or "walking", the notes
    /// say "lake" and "walk".
    @Test func fullTextMatchesWordForms() async throws {
        #expect(try await index.ids(.fullText("lakes")) == ["e"])
        #expect(try await index.ids(.fullText("walking")) == ["a"])
        #expect(try await index.ids(.fullText("museum")) == ["d"])
        #expect(try await index.ids(.fullText("trails")) == Corpus.ids { $0.keywords.contains("trail") })
        #expect(try await index.ids(.fullText("caramelize sugars")) == ["b"])
        #expect(try await index.ids(.fullText("lakes", prefix: true)) == ["e"])
    }

    @Test func sortLimitOffsetAndFetchAttributes() async throws {
        let sorted = Corpus.rows.sorted { $0.completed > $1.completed }.map(\.id)
        let page = try await index.search(SearchQuery(.all, sort: [.attribute(.completionDate, ascending: false)], limit: 2, offset: 1,
                                                      fetchAttributes: [.rating, Corpus.distance!.attribute]))
        #expect(page.map(\.item.uniqueIdentifier) == Array(sorted[1...2]))
        let first = try #require(page.first)
        #expect(Set(first.item.attributeSet.values.keys) == [.rating, Corpus.distance!.attribute])
        let bySize = try await index.search(SearchQuery(sort: [.attribute(Corpus.distance!.attribute, ascending: true)], limit: nil))
        #expect(bySize.map(\.item.uniqueIdentifier) == Corpus.rows.sorted { $0.distance < $1.distance }.map(\.id))
    }

    @Test func unknownAttributesAndWrongKindsAreTypedErrors() async throws {
        await #expect(throws: SearchIndexError.unknownAttribute("elevation")) {
            try await index.search(SearchQuery(.compare(SearchableItemAttribute(rawValue: "elevation"), .greater, .number(1))))
        }
        await #expect(throws: SearchIndexError.attributeKindMismatch(attribute: "rating", expected: .number, found: .string)) {
            try await index.search(SearchQuery(.inRange(.rating, lower: .string("a"), upper: .string("b"))))
        }
    }
}
