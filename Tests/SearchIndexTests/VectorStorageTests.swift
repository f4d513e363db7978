import Foundation
import Synchronization
import Testing
@testable import SearchIndex

/// Vectors in the index: one per sentence piece of every passage (at most
/// `PassageEmbeddingText.piecesPerItem` an item), written by the embedding pass
/// after the item's words, removed with the item, and only ever of the one embedder the file records.
@Suite struct VectorStorageTests {
    /// How many vectors these items should have.
    static func pieceCount(_ items: [SearchableItem]) -> Int64 {
        Int64(items.map { PassageEmbeddingText.pieces(of: $0).count }.reduce(0, +))
    }

    @Test func everyPassageGetsAVectorAndDeletesRemoveThem() async throws {
        let folder = try TemporaryFolder()
        let embedder = ConceptEmbedder()
        let index = try folder.index(embedder: embedder)
        let long = PassageTests.item("manual", (1...6).map { "## Part \($0)\n\n" + PassageTests.filler(sentences: 30, seed: UInt64($0)) }
            .joined(separator: "\n\n"), type: "net.daringfireball.markdown")
        try await index.indexSearchableItems(Notes.all + [long])
        try await index.embedPendingItems()
        let passages = try folder.count("SELECT count(*) FROM passages")
        #expect(passages > 1)
        let longPieces = PassageEmbeddingText.pieces(of: long)
        // every passage has pieces, several sentences each, and each piece a vector; more
        // pieces than the budget, so the budget's spread is what keeps every passage
        #expect(Set(longPieces.map(\.passage)) == Set(0..<Int(passages)))
        #expect(longPieces.count > Int(passages))
        #expect(longPieces.count == PassageEmbeddingText.piecesPerItem)
        #expect(try folder.count("SELECT count(*) FROM vectors") == Self.pieceCount(Notes.all + [long]))
        #expect(try folder.count("SELECT count(DISTINCT passage) FROM vectors WHERE rowid >> 20 = (SELECT rowid FROM items WHERE identifier = 'manual')") == passages)
        // Each of the long item's pieces was embedded with its title before it.
        #expect(embedder.embedded.withLock { $0.filter { $0.hasPrefix("manual\n") }.count } == longPieces.count)

        // Replacing the long item by a short one leaves it the short one's vectors.
        let short = PassageTests.item("manual", "Now a short note.")
        try await index.indexSearchableItems([short])
        try await index.embedPendingItems()
        #expect(try folder.count("SELECT count(*) FROM vectors") == Self.pieceCount(Notes.all + [short]))
        try await index.deleteSearchableItems(withIdentifiers: ["damp"])
        #expect(try folder.count("SELECT count(*) FROM vectors") == Self.pieceCount(Array(Notes.all.dropFirst()) + [short]))
        try await index.deleteSearchableItems(withDomainIdentifiers: ["house"])
        #expect(try folder.count("SELECT count(*) FROM vectors") == Self.pieceCount(Notes.all.filter { !["damp", "boiler"].contains($0.uniqueIdentifier) } + [short]))
        try await index.deleteAllSearchableItems()
        #expect(try folder.count("SELECT count(*) FROM vectors") == 0)
    }

    @Test func anotherEmbedderIsRefusedUntilTheVectorsAreRemoved() async throws {
        let folder = try TemporaryFolder()
        let first = try folder.index(embedder: ConceptEmbedder(identity: "model-a"))
        try await first.indexSearchableItems(Notes.all)
        try await first.embedPendingItems()
        #expect(throws: SearchIndexError.embedderMismatch(path: folder.url.appendingPathComponent("test.sqlite").path,
                                                         stored: "model-a", given: "model-b")) {
            _ = try folder.index(embedder: ConceptEmbedder(identity: "model-b"))
        }
        // Without an embedder, the index refuses new items (they would have no vectors) …
        let plain = try folder.index(embedder: nil)
        await #expect(throws: SearchIndexError.embedderRequired(path: folder.url.appendingPathComponent("test.sqlite").path, stored: "model-a")) {
            try await plain.indexSearchableItems([Notes.item("new", title: "New", text: "Rain")])
        }
        // … until its vectors are removed: then another embedder may take it.
        try await plain.removeVectors()
        #expect(try folder.count("SELECT count(*) FROM vectors") == 0)
        let other = try folder.index(embedder: ConceptEmbedder(identity: "model-b"))
        try await other.indexSearchableItems(Notes.all)
        try await other.embedPendingItems()
        #expect(try folder.count("SELECT count(*) FROM vectors") == Self.pieceCount(Notes.all))
        let hits = try await other.search(SearchQuery(.meaning("moisture")))
        #expect(hits.first?.item.uniqueIdentifier == "damp")
    }

    @Test func aFailingEmbedderLeavesTheWordsAndNoVectors() async throws {
        let folder = try TemporaryFolder()
        // An embedder that fails: the words are written, the pass fails, no vector is written.
        let failing = try folder.index("failing.sqlite", embedder: ConceptEmbedder(failing: true))
        try await failing.indexSearchableItems(Notes.all)
        await #expect(throws: SearchIndexError.self) { try await failing.embedPendingItems() }
        #expect(try folder.count("SELECT count(*) FROM items", in: "failing.sqlite") == Int64(Notes.all.count))
        #expect(try folder.count("SELECT count(*) FROM vectors", in: "failing.sqlite") == 0)
        #expect(try await failing.count(where: .fullText("plasterer")) == 1)
        // Vectors of the wrong length are refused before any is written.
        let short = try folder.index("short.sqlite", embedder: ShortVectorEmbedder())
        try await short.indexSearchableItems(Notes.all)
        await #expect(throws: SearchIndexError.self) { try await short.embedPendingItems() }
        #expect(try folder.count("SELECT count(*) FROM vectors", in: "short.sqlite") == 0)
        // A failing write takes back all of its items.
        let index = try folder.index(embedder: ConceptEmbedder())
        let broken = SearchableItem(uniqueIdentifier: "", domainIdentifier: nil, attributeSet: SearchableItemAttributeSet(contentType: "public.text"))
        await #expect(throws: SearchIndexError.emptyIdentifier) { try await index.indexSearchableItems(Notes.all + [broken]) }
        #expect(try folder.count("SELECT count(*) FROM items") == 0)
        // A batch's items get their vectors from the pass after it commits.
        try await index.beginBatch()
        try await index.indexSearchableItems(Notes.all)
        try await index.endBatch(clientState: Data([1]))
        #expect(try folder.count("SELECT count(*) FROM vectors") == 0)
        try await index.embedPendingItems()
        #expect(try folder.count("SELECT count(*) FROM vectors") == Self.pieceCount(Notes.all))
    }

    /// A process killed while the embedding pass runs leaves every item's words, every item with
    /// all of its vectors or none, and the next pass embeds only the items without.
    @Test func aProcessKilledWhileEmbeddingKeepsWholeItemsAndTheNextPassEmbedsOnlyTheRest() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("test.sqlite")
        let process = Process()
        process.executableURL = try BatchTests.probeExecutable()
        process.arguments = ["vectors", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).contains("EMBEDDING"))
        try await Task.sleep(for: .milliseconds(300))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        final class CountingProbeEmbedder: TextEmbedder {
            let identity = "probe-embedder"
            let dimension = 3
            let embedded = Mutex<[String]>([])
            func embed(_ texts: [String]) async throws -> [[Float]] {
                embedded.withLock { $0 += texts }
                return texts.map { _ in [1, 0, 0] }
            }
        }
        let embedder = CountingProbeEmbedder()
        let reopened = try SearchableIndex(url: file, embedder: embedder)
        // every item is searchable by its words
        #expect(try await reopened.count(where: .fullText("probeword")) == 2_000)
        // each item has all of its vectors or none, and no vector outlived its item
        #expect(try folder.count("SELECT count(*) FROM (SELECT count(*) AS n FROM vectors GROUP BY rowid >> 20) WHERE n != 2") == 0)
        #expect(try folder.count("SELECT count(*) FROM vectors v LEFT JOIN items i ON i.rowid = v.rowid >> 20 WHERE i.rowid IS NULL") == 0)
        let before = try await reopened.vectorCoverage()
        #expect(before.embeddedItemCount > 0 && before.embeddedItemCount < 2_000, "\(before)")
        // the next pass embeds the items without vectors, and only their pieces
        let done = try await reopened.embedPendingItems()
        #expect(done.embeddedItems == before.pendingItemCount)
        #expect(embedder.embedded.withLock { $0.count } == 2 * before.pendingItemCount)
        #expect(try await reopened.vectorCoverage().isComplete)
    }

    @Test func quantizedVectorsKeepTheirDirection() {
        let vector: [Float] = (0..<384).map { Float(sin(Double($0) * 0.37)) }
        let quantized = QuantizedVector(vector)
        #expect(quantized.blob.count == 4 + 384)
        #expect(QuantizedVector(blob: quantized.blob, dimension: 384) == quantized)
        #expect(QuantizedVector(blob: quantized.blob, dimension: 383) == nil)
        let unit = QuantizedVector.normalized(vector)
        let cosine = zip(unit, quantized.dequantized).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        #expect(cosine > 0.999)
    }
}
