import Foundation
import Testing
@testable import SearchIndex

@Suite struct BatchTests {
    @Test func batchesCommitWithClientStateAndRejectNesting() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        #expect(try await index.fetchLastClientState() == nil)
        try await index.beginBatch()
        await #expect(throws: SearchIndexError.batchAlreadyInProgress) { try await index.beginBatch() }
        try await index.indexSearchableItems(Corpus.items())
        #expect(try await index.count() == 0, "readers do not see an open batch")
        await #expect(throws: SearchIndexError.clientStateTooLarge(byteCount: 251)) {
            try await index.endBatch(clientState: Data(repeating: 1, count: 251))
        }
        try await index.endBatch(clientState: Data("v1".utf8))
        #expect(try await index.count() == 5)
        #expect(try await index.fetchLastClientState() == Data("v1".utf8))
        await #expect(throws: SearchIndexError.noBatchInProgress) { try await index.endBatch(clientState: Data()) }
    }

    /// Inside a batch the words of new items wait before reaching FTS5; replacing, deleting and
    /// failed calls must still leave exactly the committed items searchable, and a failed call's
    /// new custom key must not survive in memory while its row was rolled back.
    @Test func batchedWordsFollowReplacesDeletesAndFailedCalls() async throws {
        let folder = try TemporaryFolder()
        let mood = try #require(CustomAttributeKey(keyName: "mood"))
        func note(_ id: String, _ text: String, mood value: AttributeValue? = nil) -> SearchableItem {
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.textContent = text
            if let value { set.setValue(value, forCustomKey: mood) }
            return SearchableItem(uniqueIdentifier: id, domainIdentifier: "notes", attributeSet: set)
        }
        let index = try folder.index()
        try await index.beginBatch()
        try await index.indexSearchableItems([note("kept", "walrus"), note("gone", "pelican"), note("moved", "heron")])
        try await index.indexSearchableItems([note("moved", "osprey")])
        try await index.deleteSearchableItems(withIdentifiers: ["gone"])
        await #expect(throws: SearchIndexError.emptyIdentifier) {
            try await index.indexSearchableItems([note("failed", "albatross", mood: .string("calm")), note("", "puffin")])
        }
        try await index.endBatch(clientState: Data("v1".utf8))

        func found(_ word: String, in index: SearchableIndex) async throws -> [String] {
            try await index.search(SearchQuery(.fullText(word))).map(\.item.uniqueIdentifier)
        }
        #expect(try await found("walrus", in: index) == ["kept"])
        #expect(try await found("osprey", in: index) == ["moved"])
        for word in ["pelican", "heron", "albatross", "puffin"] { #expect(try await found(word, in: index).isEmpty, "\(word)") }
        #expect(try await index.count() == 2)

        try await index.indexSearchableItems([note("later", "gannet", mood: .string("calm"))])
        let reopened = try folder.index()
        let calm = try await reopened.search(SearchQuery(.compare(mood.attribute, .equal, .string("calm"))))
        #expect(calm.map(\.item.uniqueIdentifier) == ["later"], "the key registered by the failed call was recorded again")
        #expect(try await found("gannet", in: reopened) == ["later"])
    }

    @Test func processKilledMidBatchLeavesIndexAsBefore() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("crash.sqlite")
        do {
            let index = try SearchableIndex(url: file)
            try await index.beginBatch()
            try await index.indexSearchableItems(Corpus.items())
            try await index.endBatch(clientState: Data("before".utf8))
        }
        let probe = try Self.probeExecutable()
        let process = Process()
        process.executableURL = probe
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).contains("BATCH-OPEN"))
        try await Task.sleep(for: .milliseconds(200))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let reopened = try SearchableIndex(url: file)
        #expect(try await reopened.count() == 5)
        #expect(try await reopened.fetchLastClientState() == Data("before".utf8))
        #expect(try await reopened.search(SearchQuery(.fullText("probeword"))).isEmpty)
        #expect(try await reopened.ids(.all) == Corpus.ids { _ in true })
        // And the file is writable again.
        try await reopened.beginBatch()
        try await reopened.endBatch(clientState: Data("after".utf8))
        #expect(try await reopened.fetchLastClientState() == Data("after".utf8))
    }

    /// The probe is built beside the test bundle (same build folder).
    static func probeExecutable() throws -> URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("lantern-index-crash-probe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "lantern-index-crash-probe (run swift build first)"])
    }
}
