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

    /// Opened from its file, the embedder reads the identity without loading the model, and
    /// loads it on the first embedding: the same identity and the same vectors as an embedder
    /// over the loaded model.
    @Test func anEmbedderOpenedFromItsFileLoadsTheModelOnFirstUseWithTheSameIdentity() async throws {
        let loaded = try ModelTextEmbedder(model: EmbeddingModel(contentsOf: Self.url, configuration: .init(threads: 2)))
        let fromFile = try ModelTextEmbedder(contentsOf: Self.url, threads: 2)
        #expect(fromFile.identity == loaded.identity)
        #expect(fromFile.dimension == loaded.dimension)
        let text = "Damp patch under the sill after the storm."
        let (a, b) = (try await fromFile.embed([text])[0], try await loaded.embed([text])[0])
        #expect(zip(a, b).map { abs($0 - $1) }.max()! < 1e-3)
    }

    /// A file replaced between opening the embedder and its first embedding is not loaded under
    /// the old identity: the embedding fails with `embeddingModelChanged`, naming both.
    @Test func aModelFileReplacedBeforeTheFirstEmbeddingIsATypedError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-embedder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("model.gguf")
        try FileManager.default.copyItem(at: Self.url, to: copy)
        let embedder = try ModelTextEmbedder(contentsOf: copy, threads: 2)
        // the same model with one byte of a weight changed: still a valid GGUF, another digest
        let handle = try FileHandle(forUpdating: copy)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 1)
        let last = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: size - 1)
        try handle.write(contentsOf: Data([last ^ 1]))
        try handle.close()
        await #expect(throws: LocalModelError.self) { _ = try await embedder.embed(["a text"]) }
        do {
            _ = try await embedder.embed(["a text"])
        } catch let error as LocalModelError {
            guard case .embeddingModelChanged(let path, let expected, let found) = error else {
                Issue.record("expected embeddingModelChanged, got \(error)")
                return
            }
            #expect(path == copy.path)
            #expect(expected != found)
        }
    }
}
