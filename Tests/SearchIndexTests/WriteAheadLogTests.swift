import Foundation
import Testing
@testable import SearchIndex

/// The index lives in one SQLite file and its write-ahead log (`-wal`). `checkpoint()` (and
/// releasing the index) folds the log into the file, so the file alone is the index; a file
/// copied without a log that still held changes says so instead of opening as an older or empty
/// index; and an index from an older Lantern is told apart from both.
@Suite struct WriteAheadLogTests {
    static func notes(_ count: Int) -> [SearchableItem] {
        (0..<count).map { number in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = "note \(number)"
            set.textContent = "lake note number \(number) " + String(repeating: "filler words here ", count: 20)
            return SearchableItem(uniqueIdentifier: "n\(number)", attributeSet: set)
        }
    }

    static func size(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    }

    /// Copies the index file alone (no `-wal`, no `-shm`) into another folder.
    static func copyAlone(_ file: URL, into folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("copy-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        return copy
    }

    @Test func afterACheckpointTheFileAloneIsTheWholeIndex() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.beginBatch()
        try await index.indexSearchableItems(Self.notes(3_000))
        try await index.endBatch(clientState: Data("v1".utf8))
        #expect(try await index.checkpoint())
        #expect(Self.size(URL(fileURLWithPath: index.fileURL.path + "-wal")) ?? 0 == 0, "the log is empty")

        let copy = try SearchableIndex(url: try Self.copyAlone(index.fileURL, into: folder.url))
        #expect(try await copy.count() == 3_000)
        #expect(try await copy.fetchLastClientState() == Data("v1".utf8))
        #expect(try await copy.search(SearchQuery(.fullText("lake"), limit: 5)).count == 5)
        #expect(try await copy.checkShortlists().isSound)
        #expect(copy.replacedFormatVersion == nil)
        // The index is still writable, and a later write marks the log open again.
        try await index.indexSearchableItems(Self.notes(3_001).suffix(1))
        #expect(try await index.count() == 3_001)
    }

    @Test func releasingTheIndexFoldsTheLogIn() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("released.sqlite")
        do {
            let index = try SearchableIndex(url: file)
            try await index.indexSearchableItems(Self.notes(500))
        }
        let copy = try SearchableIndex(url: try Self.copyAlone(file, into: folder.url))
        #expect(try await copy.count() == 500)
    }

    @Test func aFileCopiedWithoutItsLogIsNotOpenedAsAnOlderIndex() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.notes(200))
        // The writer is still open: the items are in the log only.
        let copy = try Self.copyAlone(index.fileURL, into: folder.url)
        for _ in 0..<2 {
            #expect(throws: SearchIndexError.missingWriteAheadLog(path: copy.path)) { try SearchableIndex(url: copy) }
        }
        #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"), "a failed open leaves no log behind")
        let message = SearchIndexError.missingWriteAheadLog(path: copy.path).description
        #expect(message.contains("-wal") && !message.contains("older"))

        // With its log beside it, it opens whole.
        try FileManager.default.copyItem(atPath: index.fileURL.path + "-wal", toPath: copy.path + "-wal")
        #expect(try await SearchableIndex(url: copy).count() == 200)
    }

    @Test func anOlderFormatIsReplacedAndSaysSoANewerOneIsLeftAlone() async throws {
        let folder = try TemporaryFolder()
        let older = folder.url.appendingPathComponent("older.sqlite")
        let newer = folder.url.appendingPathComponent("newer.sqlite")
        for (file, version) in [(older, IndexSchema.version - 1), (newer, IndexSchema.version + 1)] {
            let raw = try SQLiteDatabase(path: file.path, readOnly: false)
            try raw.execute("CREATE TABLE items(rowid INTEGER PRIMARY KEY, identifier TEXT); INSERT INTO items(identifier) VALUES('old'); PRAGMA user_version = \(version);")
        }
        let replaced = try SearchableIndex(url: older)
        #expect(replaced.replacedFormatVersion == IndexSchema.version - 1)
        #expect(try await replaced.count() == 0)

        #expect(throws: SearchIndexError.newerIndexFormat(path: newer.path, found: IndexSchema.version + 1, supported: IndexSchema.version)) {
            try SearchableIndex(url: newer)
        }
        let untouched = try SQLiteDatabase(path: newer.path, readOnly: true)
        #expect(try untouched.query("PRAGMA user_version") { $0.integer(0) } == [Int64(IndexSchema.version + 1)])
        #expect(try untouched.query("SELECT identifier FROM items") { $0.text(0) } == ["old"])
        #expect(try SearchableIndex(url: folder.url.appendingPathComponent("new.sqlite")).replacedFormatVersion == nil)
    }
}
