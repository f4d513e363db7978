import Foundation
import Testing
@testable import SearchIndex

@Suite struct ItemRoundTripTests {
    @Test func everyStandardAttributeRoundTrips() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        var set = SearchableItemAttributeSet()
        var expected: [SearchableItemAttribute: AttributeValue] = [:]
        for (offset, (attribute, kind)) in SearchableItemAttribute.standard.enumerated() {
            let value: AttributeValue = switch kind {
            case .string: .string("value of \(attribute) ✓ \(offset)")
            case .strings: .strings(["first \(offset)", "second é", "third"])
            case .number: .number(Double(offset) + 0.125)
            case .date: .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(offset) * 3_600.5))
            }
            set[attribute] = value
            expected[attribute] = value
        }
        let expiry = Date().addingTimeInterval(86_400)
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "x", domainIdentifier: "d.e", attributeSet: set, expirationDate: expiry)])
        let fetched = try await index.fetchItems(identifiers: ["x"])
        let item = try #require(fetched.first)
        #expect(item.domainIdentifier == "d.e")
        #expect(item.expirationDate?.timeIntervalSince1970 == expiry.timeIntervalSince1970)
        for (attribute, value) in expected {
            #expect(item.attributeSet[attribute] == value, "\(attribute)")
        }
        #expect(item.attributeSet.values.count == expected.count)
    }

    @Test func customAttributesOfEveryKindRoundTrip() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let keys = try [("note_text", AttributeValue.string("hello")), ("tags_list", .strings(["x", "y"])),
                        ("distance", .number(4.5)), ("visited_on", .date(Date(timeIntervalSince1970: 1_600_000_000)))]
            .map { name, value in (try #require(CustomAttributeKey(keyName: name, multiValued: value.kind == .strings)), value) }
        var set = SearchableItemAttributeSet()
        for (key, value) in keys { set.setValue(value, forCustomKey: key) }
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "c", attributeSet: set)])
        let item = try #require(try await index.fetchItems(identifiers: ["c"]).first)
        for (key, value) in keys { #expect(item.attributeSet.value(forCustomKey: key) == value) }
        // A second item giving the wrong kind for a registered key is refused with a typed error.
        var wrong = SearchableItemAttributeSet()
        wrong.setValue(.string("far"), forCustomKey: keys[2].0)
        await #expect(throws: SearchIndexError.attributeKindMismatch(attribute: "distance", expected: .number, found: .string)) {
            try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "w", attributeSet: wrong)])
        }
        let catalogue = try await index.attributeCatalogue()
        #expect(Set(catalogue.filter(\.isCustom).map(\.attribute.rawValue)) == ["note_text", "tags_list", "distance", "visited_on"])
    }

    @Test func customKeyNamesFollowApplesRule() {
        #expect(CustomAttributeKey(keyName: "distance_miles") != nil)
        #expect(CustomAttributeKey(keyName: "com_example_Rating2") != nil)
        #expect(CustomAttributeKey(keyName: "") == nil)
        #expect(CustomAttributeKey(keyName: "kMDItemDistance") == nil)
        #expect(CustomAttributeKey(keyName: "com.example.distance") == nil)
        #expect(CustomAttributeKey(keyName: "distance-miles") == nil)
        #expect(CustomAttributeKey(keyName: "déjà") == nil)
        #expect(CustomAttributeKey(keyName: "title") == nil)
    }

    @Test func textIsFetchableButNeverInSearchResultsAndDeletesFromFullText() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let body = String(repeating: "The quick zebra jumps over the lazy dog. ", count: 200)
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = "Zebra notes"
        set.textContent = body
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "z", attributeSet: set)])
        let hits = try await index.search(SearchQuery(.fullText("zebra"), fetchAttributes: [.title, .textContent]))
        #expect(hits.map(\.item.uniqueIdentifier) == ["z"])
        #expect(hits.first?.item.attributeSet.textContent == nil)
        #expect(hits.first?.item.attributeSet.title == "Zebra notes")
        #expect(try await index.fetchItems(identifiers: ["z"]).first?.attributeSet.textContent == body)
        try await index.deleteSearchableItems(withIdentifiers: ["z"])
        #expect(try await index.search(SearchQuery(.fullText("zebra"))).isEmpty)
        #expect(try await index.fetchItems(identifiers: ["z"]).isEmpty)
        // Re-adding under a new identifier finds only the new one: no stale words remained.
        set.textContent = "nothing about that animal"
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "y", attributeSet: set)])
        #expect(try await index.search(SearchQuery(.fullText("lazy dog"))).isEmpty)
    }

    @Test func compressionRoundTripsAndPaysOnlyWhenItShould() throws {
        let repetitive = String(repeating: "abc déf ", count: 500)
        let stored = TextCompression.encode(repetitive)
        #expect(stored.count < repetitive.utf8.count / 4)
        #expect(TextCompression.decode(stored) == repetitive)
        let short = "short"
        #expect(TextCompression.encode(short) == [0] + Array(short.utf8))
        var random = SystemRandomNumberGenerator()
        let noise = String((0..<4_000).map { _ in Character(Unicode.Scalar(UInt8.random(in: 33...126, using: &random))) })
        #expect(TextCompression.decode(TextCompression.encode(noise)) == noise)
        #expect(TextCompression.decode([1, 200, 1, 5]) == nil)
    }

    @Test func upsertReplacesAndDomainsAndAllDelete() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Corpus.items())
        var replacement = SearchableItemAttributeSet()
        replacement.title = "Renamed"
        try await index.indexSearchableItems([SearchableItem(uniqueIdentifier: "a", domainIdentifier: "other", attributeSet: replacement)])
        #expect(try await index.count() == 5)
        #expect(try await index.search(SearchQuery(.fullText("Seine"))).isEmpty)
        #expect(try await index.ids(.fullText("renamed")) == ["a"])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["trips"])
        #expect(try await index.ids(.all) == ["a", "b"])
        try await index.deleteAllSearchableItems()
        #expect(try await index.count() == 0)
        #expect(try await index.search(SearchQuery(.fullText("custard"))).isEmpty)
    }

    @Test func expiredItemsDisappear() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        var set = SearchableItemAttributeSet()
        set.title = "ephemeral"
        try await index.indexSearchableItems([
            SearchableItem(uniqueIdentifier: "soon", attributeSet: set, expirationDate: Date().addingTimeInterval(0.3)),
            SearchableItem(uniqueIdentifier: "later", attributeSet: set, expirationDate: Date().addingTimeInterval(3_600)),
        ])
        #expect(try await index.ids(.fullText("ephemeral")) == ["soon", "later"])
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await index.ids(.fullText("ephemeral")) == ["later"])
        #expect(try await index.count() == 1)
    }

    @Test func namedIndexesLiveUnderXDGDataHome() throws {
        setenv("XDG_DATA_HOME", "/tmp/lantern-xdg-test", 1)
        #expect(try SearchableIndex.defaultURL(name: "notes").path == "/tmp/lantern-xdg-test/lantern/indexes/notes.sqlite")
        #expect(throws: SearchIndexError.invalidIndexName("../x")) { try SearchableIndex.defaultURL(name: "../x") }
    }
}
