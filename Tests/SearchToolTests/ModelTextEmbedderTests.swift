import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// The real embedding model (all-MiniLM-L6-v2, installed by setup) behind the index: a
/// question that shares no content word with a note finds it by meaning and by hybrid search,
/// where full text finds nothing. The distractors are about unrelated things, so which note is
/// nearest does not depend on the CPU's rounding.
@Suite(.serialized) struct ModelTextEmbedderTests {
    static let url = TestEmbeddingModel.url

    static func note(_ id: String, _ title: String, _ text: String) -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: "public.plain-text")
        set.title = title
        set.textContent = text
        return SearchableItem(uniqueIdentifier: id, domainIdentifier: "notes", attributeSet: set)
    }

    static let notes = [
        note("damp", "Bedroom window", "Damp patch under the sill after the storm; the plasterer resealed the frame."),
        note("tax", "Tax return", "Filed the annual tax return and paid the balance owed."),
        note("guitar", "Guitar lesson", "Practised chord changes and a new strumming pattern."),
        note("cake", "Birthday cake", "Chocolate sponge with buttercream for Anna's party."),
    ]

    @Test func aParaphraseFindsItsNoteByMeaningAndHybridButNotByWords() async throws {
        let model = try EmbeddingModel(contentsOf: Self.url, configuration: .init(threads: 2))
        let embedder = try ModelTextEmbedder(model: model)
        #expect(embedder.dimension == 384)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-embedder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.sqlite")
        let index = try SearchableIndex(url: file, embedder: embedder)
        try await index.indexSearchableItems(Self.notes)
        try await index.embedPendingItems()

        let question = "water leaking into the house"
        let wordsOnly = try SearchableIndex(url: folder.appendingPathComponent("words.sqlite"))
        try await wordsOnly.indexSearchableItems(Self.notes)
        #expect(try await wordsOnly.search(SearchQuery(.fullText(question))).isEmpty)
        #expect(try await index.search(SearchQuery(.meaning(question))).first?.item.uniqueIdentifier == "damp")
        #expect(try await index.search(SearchQuery(.fullText(question))).first?.item.uniqueIdentifier == "damp")

        // The file records the model: another identity is refused.
        struct Other: TextEmbedder {
            let identity = "another model"
            let dimension = 384
            func embed(_ texts: [String]) async throws -> [[Float]] { texts.map { _ in Array(repeating: 1, count: 384) } }
        }
        #expect(throws: SearchIndexError.self) { _ = try SearchableIndex(url: file, embedder: Other()) }
    }
}
