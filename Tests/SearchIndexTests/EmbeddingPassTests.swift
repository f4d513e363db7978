import Foundation
import Synchronization
import Testing
@testable import SearchIndex

/// The embedding pass (`EmbeddingPass`, `SearchableIndex.embedPendingItems`): words are
/// searchable before any vector exists, the pass goes on where an interrupted one stopped and
/// never embeds an item twice, identical text is embedded once, and a search over partial
/// vectors still finds the items without any by their words.
@Suite struct EmbeddingPassTests {
    /// Counts what it embeds; cancels the task that calls it on call `cancellingOnCall`.
    final class CancellingEmbedder: TextEmbedder {
        let identity = "concepts-v1"
        let dimension = ConceptEmbedder.concepts.count + 1
        let cancellingOnCall: Int?
        let calls = Mutex<[[String]]>([])

        init(cancellingOnCall: Int? = nil) {
            self.cancellingOnCall = cancellingOnCall
        }

        func embed(_ texts: [String]) async throws -> [[Float]] {
            let call = calls.withLock { calls in
                calls.append(texts)
                return calls.count
            }
            if call == cancellingOnCall { withUnsafeCurrentTask { $0?.cancel() } }
            return texts.map(ConceptEmbedder.vector)
        }

        var textCount: Int { calls.withLock { $0.joined().count } }
    }

    /// `count` notes of two pieces each (the title, then the title with the one sentence).
    static func notes(_ count: Int) -> [SearchableItem] {
        (1...count).map { Notes.item("n\($0)", title: "Note \($0)", text: "Entry number \($0) about the garden shed.") }
    }

    @Test func wordsAreSearchableBeforeAnyVectorExists() async throws {
        let folder = try TemporaryFolder()
        let embedder = ConceptEmbedder()
        let index = try folder.index(embedder: embedder)
        try await index.indexSearchableItems(Notes.all)
        #expect(embedder.embedded.withLock { $0.isEmpty })
        #expect(try folder.count("SELECT count(*) FROM vectors") == 0)
        // a words query on an index with an embedder is hybrid, and finds the item by its words
        #expect(try await index.search(SearchQuery(.fullText("plasterer"))).map(\.item.uniqueIdentifier) == ["damp"])
        #expect(try await index.vectorCoverage() == VectorCoverage(itemCount: 4, embeddedItemCount: 0, vectorCount: 0))
        let done = try await index.embedPendingItems()
        #expect(done.embeddedItems == 4 && done.isComplete)
        #expect(try await index.vectorCoverage().isComplete)
        #expect(try await index.search(SearchQuery(.meaning("moisture"))).first?.item.uniqueIdentifier == "damp")
    }

    @Test func aCancelledPassKeepsItsChunksAndTheNextEmbedsOnlyTheRest() async throws {
        let folder = try TemporaryFolder()
        let notes = Self.notes(300)
        let pieces = notes.map { PassageEmbeddingText.pieces(of: $0).count }.reduce(0, +)
        #expect(pieces == 600)
        let first = CancellingEmbedder(cancellingOnCall: 2)
        let index = try folder.index(embedder: first)
        try await index.indexSearchableItems(notes)
        let stopped = try await Task { try await index.embedPendingItems() }.value
        // two chunks of 256 pieces (128 notes) were embedded and committed before the cancel took effect
        #expect(first.calls.withLock { $0.count } == 2)
        #expect(stopped.embeddedItems == 256 && stopped.remainingItems == 44, "\(stopped)")
        #expect(try folder.count("SELECT count(*) FROM vectors") == 512)

        let second = CancellingEmbedder()
        let reopened = try folder.index(embedder: second)
        let rest = try await reopened.embedPendingItems()
        #expect(rest.embeddedItems == 44 && rest.isComplete)
        #expect(second.textCount == 88)
        #expect(try folder.count("SELECT count(*) FROM vectors") == 600)
        // nothing is left: a further pass embeds nothing
        #expect(try await reopened.embedPendingItems().embeddedItems == 0)
        #expect(second.textCount == 88)
    }

    @Test func boundedStepsEmbedAtMostTheirItems() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder())
        try await index.indexSearchableItems(Self.notes(10))
        let progress = Mutex<[EmbeddingProgress]>([])
        let step = try await index.embedPendingItems(maximumItems: 3) { state in progress.withLock { $0.append(state) } }
        #expect(step.embeddedItems == 3 && step.remainingItems == 7)
        #expect(progress.withLock { $0.first?.pendingItems } == 10)
        #expect(try await index.vectorCoverage().embeddedItemCount == 3)
        #expect(try await index.embedPendingItems(maximumItems: 100).embeddedItems == 7)
    }

    @Test func identicalTextIsEmbeddedOnce() async throws {
        let folder = try TemporaryFolder()
        let embedder = CancellingEmbedder()
        let index = try folder.index(embedder: embedder)
        // ten copies of one licence file: the same title and text under ten identifiers
        let copies = (1...10).map { Notes.item("copyright-\($0)", title: "copyright", text: "Permission is granted to copy and distribute this software.") }
        try await index.indexSearchableItems(copies)
        let done = try await index.embedPendingItems()
        #expect(embedder.textCount == 2)
        #expect(done.embeddedPieces == 2 && done.reusedPieces == 18)
        #expect(try folder.count("SELECT count(*) FROM vectors") == 20)
        // a later copy takes the vectors the index holds
        try await index.indexSearchableItems([Notes.item("copyright-11", title: "copyright", text: "Permission is granted to copy and distribute this software.")])
        let later = try await index.embedPendingItems()
        #expect(embedder.textCount == 2)
        #expect(later.embeddedItems == 1 && later.reusedPieces == 2)
        #expect(try await index.vectorCoverage() == VectorCoverage(itemCount: 11, embeddedItemCount: 11, vectorCount: 22))
    }

    @Test func hybridSearchOverPartialVectorsFindsTheOthersByTheirWords() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder())
        try await index.indexSearchableItems(Notes.all)
        // only the first item (damp) gets vectors
        try await index.embedPendingItems(maximumItems: 1)
        #expect(try await index.vectorCoverage() == VectorCoverage(itemCount: 4, embeddedItemCount: 1, vectorCount: 2))
        // the car note has no vector: the hybrid query finds it by its words
        #expect(try await index.search(SearchQuery(.fullText("garage"))).first?.item.uniqueIdentifier == "car")
        let page = try await index.searchCountingFoundItems(SearchQuery(.fullText("brakes")))
        #expect(page.hits.first?.item.uniqueIdentifier == "car" && page.foundItemCount == 1)
        // and the damp note, which has, by meaning alone
        #expect(try await index.search(SearchQuery(.fullText("moisture"))).first?.item.uniqueIdentifier == "damp")
    }

    @Test func anItemChangedWhileItsChunkWasEmbeddedKeepsNoStaleVectors() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder())
        try await index.indexSearchableItems(Notes.all)
        let pass = EmbeddingPass(database: try SQLiteDatabase(path: folder.url.appendingPathComponent("test.sqlite").path, readOnly: false))
        let chunk = try #require(try pass.chunk(after: 0, maximumItems: 10))
        #expect(chunk.items.count == 4)
        // the damp note is replaced after the chunk read it: its old text's vectors are not written
        try await index.indexSearchableItems([Notes.item("damp", title: "Bedroom window", text: "Repainted the frame.")])
        var filled = chunk
        filled.fill(chunk.missing.map { ConceptEmbedder.vector($0.text) })
        #expect(try pass.store(filled) == 3)
        #expect(try await index.vectorCoverage().pendingItemCount == 1)
    }
}
