import Foundation
import Synchronization
import Testing
@testable import SearchIndex

/// One writer's view is the truth: the writer lock serializes refreshes, an index records the
/// source that built it and refuses another, and a comparison finds what index and source
/// disagree on.
@Suite struct IndexOriginTests {
    static func corpusFile(in folder: TemporaryFolder, ids: [String], name: String = "items.jsonl") throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        let lines = ids.map { "{\"id\": \"\($0)\", \"attributes\": {\"title\": \"Note \($0)\", \"textContent\": \"heron marsh \($0)\"}}" }
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url
    }

    static func notes(in folder: TemporaryFolder, count: Int) throws -> URL {
        let notes = folder.url.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        for number in 0..<count {
            try Data("note \(number) about the heron by the marsh\n".utf8).write(to: notes.appendingPathComponent("n\(number).txt"))
        }
        return notes
    }

    /// What the second writer has been told and done, set from its task.
    final class SecondWriter: Sendable {
        private let state = Mutex<(told: Int32??, acquired: Bool)>((nil, false))
        func tell(_ holder: Int32?) { state.withLock { $0.told = .some(holder) } }
        func acquire() { state.withLock { $0.acquired = true } }
        var told: Int32?? { state.withLock { $0.told } }
        var acquired: Bool { state.withLock { $0.acquired } }
    }

    @Test func aSecondWriterWaitsUntilTheFirstReleasesTheLock() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("locked.sqlite")
        var first: IndexWriterLock? = try await IndexWriterLock.acquire(for: url)
        let writer = SecondWriter()
        let second = Task {
            let lock = try await IndexWriterLock.acquire(for: url) { holder in writer.tell(holder) }
            writer.acquire()
            return lock
        }
        // The waiting note comes while the first lock is held; until it is released nothing acquires.
        while writer.told == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(writer.told == .some(getpid()), "the holder's process id is read from the lock file")
        #expect(!writer.acquired)
        #expect(first != nil)
        first = nil
        _ = try await second.value
        #expect(writer.acquired)
    }

    @Test func cancellingAWaitingWriterStopsItsWait() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("locked.sqlite")
        let held = try await IndexWriterLock.acquire(for: url)
        let waiter = Task { try await IndexWriterLock.acquire(for: url) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        withExtendedLifetime(held) {}
    }

    @Test func aCorpusIsIndexedOnceUntilItsBytesChange() async throws {
        let folder = try TemporaryFolder()
        let file = try Self.corpusFile(in: folder, ids: ["a", "b", "c"])
        let index = try folder.index()
        let corpus = CorpusSource(file: file)
        #expect(try await corpus.refresh(into: index).indexed == 3)
        #expect(try await corpus.refresh(into: index).unchanged)
        #expect(try await index.origin() == .corpus(file))
        #expect(try await corpus.compare(with: index).agrees)

        _ = try Self.corpusFile(in: folder, ids: ["a", "c", "d"])
        let comparison = try await corpus.compare(with: index)
        #expect(comparison.missing == ["d"])
        #expect(comparison.extra == ["b"])
        #expect(comparison.changed == [file.path])
        #expect(try await corpus.refresh(into: index).indexed == 3)
        #expect(try await corpus.compare(with: index).agrees)
    }

    @Test func aFolderIndexRefusesACorpusAndLosesNothing() async throws {
        let folder = try TemporaryFolder()
        let notes = try Self.notes(in: folder, count: 12)
        let file = try Self.corpusFile(in: folder, ids: ["a", "b", "c"])
        let index = try folder.index()
        _ = try await FileSource(scopes: [notes]).refresh(into: index)
        #expect(try await index.count() == 12)

        await #expect(throws: SearchIndexError.sourceMismatch(path: index.fileURL.path, recorded: .folders([notes]), given: .corpus(file))) {
            _ = try await CorpusSource(file: file).refresh(into: index)
        }
        #expect(try await index.count() == 12)
        #expect(try await index.origin() == .folders([notes]))
        // The refused corpus left no batch open: the index still takes writes.
        _ = try await FileSource(scopes: [notes]).refresh(into: index)
        #expect(try await FileSource(scopes: [notes]).compare(with: index).agrees)

        var replacing = CorpusSource(file: file)
        replacing.replacesOtherSource = true
        #expect(try await replacing.refresh(into: index).indexed == 3)
        #expect(try await index.count() == 3)
        #expect(try await index.origin() == .corpus(file))
    }

    @Test func aCorpusIndexRefusesAFolderUnlessItReplacesIt() async throws {
        let folder = try TemporaryFolder()
        let notes = try Self.notes(in: folder, count: 5)
        let file = try Self.corpusFile(in: folder, ids: ["a", "b", "c"])
        let index = try folder.index()
        _ = try await CorpusSource(file: file).refresh(into: index)

        await #expect(throws: SearchIndexError.sourceMismatch(path: index.fileURL.path, recorded: .corpus(file), given: .folders([notes]))) {
            _ = try await FileSource(scopes: [notes]).refresh(into: index)
        }
        #expect(try await index.count() == 3)

        var replacing = FileSource(scopes: [notes])
        replacing.replacesOtherSource = true
        #expect(try await replacing.refresh(into: index).indexed == 5)
        #expect(try await index.count() == 5, "the corpus's items are gone with its source")
        #expect(try await index.fetchLastClientState() == nil, "the corpus's fingerprint went with it")
    }

    @Test func aFolderComparisonFindsMissingExtraAndChangedFiles() async throws {
        let folder = try TemporaryFolder()
        let notes = try Self.notes(in: folder, count: 4)
        let index = try folder.index()
        let files = FileSource(scopes: [notes])
        _ = try await files.refresh(into: index)
        #expect(try await files.compare(with: index).agrees)

        let real = { (name: String) in notes.appendingPathComponent(name).resolvingSymlinksInPath().path }
        try FileManager.default.removeItem(at: notes.appendingPathComponent("n0.txt"))
        try Data("a new note\n".utf8).write(to: notes.appendingPathComponent("new.txt"))
        try Data("longer than it was when indexed\n".utf8).write(to: notes.appendingPathComponent("n1.txt"))
        try Data([0, 1, 2, 3]).write(to: notes.appendingPathComponent("binary.txt"))
        let comparison = try await files.compare(with: index)
        #expect(comparison.missing == [real("new.txt")], "a file the refresh would skip (binary) is not missing")
        #expect(comparison.extra == [real("n0.txt")])
        #expect(comparison.changed == [real("n1.txt")])
        #expect(!comparison.agrees)

        _ = try await files.refresh(into: index)
        #expect(try await files.compare(with: index).agrees)
    }
}
