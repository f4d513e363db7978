import Foundation
import Testing
@testable import SearchIndex

@Suite struct CorpusReaderTests {
    private let reader = CorpusReader()

    @Test func everyKindOfValueBecomesTheMatchingAttribute() throws {
        let line = #"""
        {"id": "t1", "domain": "trails", "contentType": "public.text", "attributes": {"title": "Mist Trail", "rating": 3, "duration": 10200.5, "completionDate": "2024-06-14T19:20:00Z", "contentCreationDate": "2024-06-15", "keywords": ["waterfall", "river"], "city": null}, "custom": {"distanceKilometers": 5.4, "permit": "YOS-1", "visitedOn": "2023-01-02T03:04:05.250Z", "companions": ["Priya"]}}
        """#
        let item = try reader.item(fromLine: line)
        #expect(item.uniqueIdentifier == "t1")
        #expect(item.domainIdentifier == "trails")
        let set = item.attributeSet
        #expect(set.contentType == "public.text")
        #expect(set.title == "Mist Trail")
        #expect(set.rating == 3)
        #expect(set.duration == 10200.5)
        #expect(set.completionDate == Date(timeIntervalSince1970: 1_718_392_800))
        #expect(set.contentCreationDate == Date(timeIntervalSince1970: 1_718_409_600))
        #expect(set.keywords == ["waterfall", "river"])
        #expect(set.city == nil)
        #expect(set[SearchableItemAttribute(rawValue: "distanceKilometers")] == .number(5.4))
        #expect(set[SearchableItemAttribute(rawValue: "permit")] == .string("YOS-1"))
        #expect(set[SearchableItemAttribute(rawValue: "visitedOn")] == .date(Date(timeIntervalSince1970: 1_672_628_645.25)))
        #expect(set[SearchableItemAttribute(rawValue: "companions")] == .strings(["Priya"]))
        #expect(set.customKeys[SearchableItemAttribute(rawValue: "companions")]?.isMultiValued == true)
        #expect(set.customKeys[SearchableItemAttribute(rawValue: "permit")]?.isSearchableByDefault == true)
    }

    @Test func readItemsIndexAndComeBackWhole() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("corpus.jsonl")
        let text = """
        {"id": "a", "attributes": {"title": "Alpha", "textContent": "granite dome above the valley", "rating": 4}, "custom": {"distance": 2.5}}

        {"id": "b", "domain": "notes", "attributes": {"title": "Beta", "textContent": "a quiet lake", "keywords": ["lake"]}}
        """
        try Data(text.utf8).write(to: file)
        let items = try reader.items(contentsOf: file)
        #expect(items.map(\.uniqueIdentifier) == ["a", "b"])
        let index = try folder.index()
        try await index.indexSearchableItems(items)
        let hits = try await index.search(SearchQuery(.fullText("granite"), limit: nil))
        #expect(hits.map(\.item.uniqueIdentifier) == ["a"])
        let fetched = try await index.fetchItems(identifiers: ["a", "b"])
        // Fetched items carry values (custom keys' flags stay in the index).
        let byID = Dictionary(uniqueKeysWithValues: fetched.map { ($0.uniqueIdentifier, $0) })
        for item in items {
            #expect(byID[item.uniqueIdentifier]?.attributeSet.values == item.attributeSet.values)
            #expect(byID[item.uniqueIdentifier]?.domainIdentifier == item.domainIdentifier)
        }
    }

    @Test(arguments: [
        (#"{"id": "x", "attributes": {"rating": "high"}}"#, "attribute \"rating\" must be a number, found a string"),
        (#"{"id": "x", "attributes": {"title": 7}}"#, "attribute \"title\" must be a string, found a number"),
        (#"{"id": "x", "attributes": {"keywords": "river"}}"#, "attribute \"keywords\" must be a list of strings, found a string"),
        (#"{"id": "x", "attributes": {"keywords": ["a", 1]}}"#, "a list holding a number"),
        (#"{"id": "x", "attributes": {"completionDate": "last Tuesday"}}"#, "ISO-8601"),
        (#"{"id": "x", "attributes": {"distance": 3}}"#, "\"distance\" is not a standard attribute"),
        (#"{"id": "x", "attributes": {}, "custom": {"bad key": 1}}"#, "\"bad key\" is not a valid custom attribute name"),
        (#"{"id": "x", "attributes": {}, "custom": {"flag": true}}"#, "custom \"flag\" must be"),
        (#"{"id": "x", "attributes": {}, "custom": ["a"]}"#, "\"custom\" must be an object, found a list"),
        (#"{"id": 12, "attributes": {}}"#, "\"id\" must be a string, found a number"),
        (#"{"id": "", "attributes": {}}"#, "\"id\" is empty"),
        (#"{"attributes": {}}"#, "the field \"id\" is missing"),
        (#"{"id": "x"}"#, "the field \"attributes\" is missing"),
        (#"{"id": "x", "domain": 3, "attributes": {}}"#, "\"domain\" must be a string"),
        (#"["id", "x"]"#, "the line is a list"),
        (#"{"id": "x", "attributes": {"#, "not a JSON object"),
    ])
    func badLinesNameTheLineAndTheProblem(line: String, expected: String) throws {
        let text = #"{"id": "ok", "attributes": {"title": "fine"}}"# + "\n\n" + line + "\n"
        let error = try #require(throws: CorpusReaderError.self) { try reader.items(fromText: text, path: "c.jsonl") }
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("c.jsonl line 3: "), "\(error)")
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test func duplicateIdentifiersNameBothLines() throws {
        let text = #"{"id": "a", "attributes": {}}"# + "\n" + #"{"id": "b", "attributes": {}}"# + "\n" + #"{"id": "a", "attributes": {}}"#
        let error = try #require(throws: CorpusReaderError.self) { try reader.items(fromText: text) }
        #expect(error.line == 3)
        #expect(error.problem == .duplicateIdentifier("a", firstLine: 1))
    }

    @Test func aMissingFileSaysSo() throws {
        let path = "/nonexistent-\(UUID().uuidString)/corpus.jsonl"
        let error = try #require(throws: CorpusReaderError.self) { try reader.items(contentsOf: URL(fileURLWithPath: path)) }
        #expect(error.problem == .unreadableFile(reason: "no such file"))
        #expect(error.description.contains(path))
    }
}
