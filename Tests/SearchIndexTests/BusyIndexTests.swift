import Foundation
import Testing
@testable import SearchIndex

/// When another process holds the index's write lock for longer than a write waits, the error
/// says so and what to do (wait, or stop that process), and never advises deleting the index.
@Suite struct BusyIndexTests {
    @Test func aWriteBlockedByAnotherWritersLockSaysWhoHoldsItAndToWait() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Corpus.items())
        let other = try SQLiteDatabase(path: index.fileURL.path, readOnly: false)
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }

        var thrown: (any Error)?
        do { try await index.deleteSearchableItems(withIdentifiers: ["a"]) } catch { thrown = error }
        let error = try #require(thrown as? SearchIndexError)
        #expect(error == .indexBusy(path: index.fileURL.path))
        let message = error.description
        #expect(message.contains("Another process holds the index"), "\(message)")
        #expect(message.contains("wait") || message.contains("Wait"), "\(message)")
        #expect(!message.lowercased().contains("delete") && !message.lowercased().contains("remove"), "\(message)")

        try other.execute("ROLLBACK")
        try await index.deleteSearchableItems(withIdentifiers: ["a"])
        #expect(try await index.count() == 4, "nothing was changed by the blocked write, and the next one works")
    }

    @Test func otherSQLiteFailuresAdviseByTheirCause() {
        func advice(_ code: Int32) -> String { SearchIndexError.database(message: "m", code: Int(code), sql: "s").description }
        #expect(advice(5 /* SQLITE_BUSY */).contains("check the index"), "a raw busy code never blames the file")
        #expect(!advice(13 /* SQLITE_FULL */).contains("remove"))
        #expect(advice(13).contains("disk is full"))
        #expect(advice(11 /* SQLITE_CORRUPT */).contains("damaged"))
    }
}
