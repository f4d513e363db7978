import Foundation
import Synchronization
import Testing
@testable import SearchIndex

/// File names are bytes: one that is not UTF-8 is indexed, shown with U+FFFD, found again on
/// the next refresh and removed when it goes, and two names that differ only in invalid bytes
/// stay two items. Pseudo-filesystems are skipped by type before anything in them is read, every
/// read has a deadline, and the per-file text cap is reported.
@Suite struct FileSourceNamesAndSpecialFilesTests {
    /// Writes `text` to the file named by the raw bytes `name` in `folder`.
    static func create(_ name: [UInt8], in folder: URL, text: String) throws {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// Removes the file named by the raw bytes `name` (FileManager cannot name it).
    static func remove(_ name: [UInt8], in folder: URL) {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        _ = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
    }

    /// `work`'s result, or nil when it has not finished `seconds` after it started: a test of
    /// something that used to hang fails instead of hanging (the work is left running). The
    /// clock starts with the work, so a suite that keeps every thread of the cooperative pool
    /// busy delays the test without failing it.
    static func within<T: Sendable>(_ seconds: Double, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>?, Never>) in
            let race = FirstResult(continuation)
            Task.detached {
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { race.finish(nil) }
                do { race.finish(.success(try await work())) } catch { race.finish(.failure(error)) }
            }
        }
        return try result?.get()
    }

    static func fetch(_ index: SearchableIndex, _ word: String) async throws -> [SearchableItem] {
        try await index.search(SearchQuery(.fullText(word), limit: nil, fetchAttributes: [.title, .displayName, .path]))
            .map(\.item)
    }

    @Test func aNameThatIsNotUTF8IsIndexedShownAndFoundAgain() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        // "café.txt" in Latin-1: 0xE9 alone is not UTF-8.
        let name = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        try Self.create(name, in: scope, text: "latinword in a Latin-1 named file")
        try Self.create(Array("plain.txt".utf8), in: scope, text: "plainword")
        defer { Self.remove(name, in: scope) }
        let index = try folder.index()
        let source = FileSource(scopes: [scope])

        let first = try await source.refresh(into: index)
        #expect(first.indexed == 2, "\(first.skipped)")
        #expect(first.skipped.isEmpty, "\(first.skipped)")
        let items = try await Self.fetch(index, "latinword")
        try #require(items.count == 1)
        let item = items[0]
        #expect(item.attributeSet.title == "caf\u{FFFD}.txt")
        #expect(item.attributeSet.displayName == "caf\u{FFFD}.txt")
        #expect(item.attributeSet.path == scope.path + "/caf\u{FFFD}.txt")
        // The identifier names the exact bytes, so the source can open the file again.
        #expect(FileItemPath(identifier: item.uniqueIdentifier)?.bytes == Array(scope.path.utf8) + [UInt8(ascii: "/")] + name)
        #expect(try await Self.fetch(index, "plainword").map(\.uniqueIdentifier) == [scope.path + "/plain.txt"],
                "a UTF-8 path keeps its path as identifier")

        let second = try await source.refresh(into: index)
        #expect(second.unchanged == 2 && second.indexed == 0 && second.removed == 0, "\(second)")

        // Changed, it is read again under the same identifier.
        try Self.create(name, in: scope, text: "latinword changedword")
        let third = try await source.refresh(into: index)
        #expect(third.indexed == 1 && third.unchanged == 1 && third.removed == 0, "\(third)")
        #expect(try await Self.fetch(index, "changedword").map(\.uniqueIdentifier) == [item.uniqueIdentifier])

        Self.remove(name, in: scope)
        let fourth = try await source.refresh(into: index)
        #expect(fourth.removed == 1, "\(fourth)")
        #expect(try await Self.fetch(index, "latinword").isEmpty)
        #expect(try await index.count() == 1)
    }

    /// Names that show the same (each invalid byte becomes U+FFFD), one of them holding a real
    /// U+FFFD and one spelled like an escape, are four files and four items.
    @Test func namesThatDifferOnlyInInvalidBytesAreDistinctItems() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        let names: [[UInt8]] = [
            Array("x".utf8) + [0xFF] + Array(".txt".utf8),
            Array("x".utf8) + [0xFE] + Array(".txt".utf8),
            Array("x\u{FFFD}.txt".utf8),
            Array("x%FF.txt".utf8),
        ]
        for (number, name) in names.enumerated() { try Self.create(name, in: scope, text: "sameword word\(number)") }
        defer { for name in names { Self.remove(name, in: scope) } }
        let index = try folder.index()
        let source = FileSource(scopes: [scope])
        let first = try await source.refresh(into: index)
        #expect(first.indexed == 4, "\(first.skipped)")
        let items = try await Self.fetch(index, "sameword")
        #expect(Set(items.map(\.uniqueIdentifier)).count == 4)
        for number in names.indices {
            #expect(try await index.ids(.fullText("word\(number)")).count == 1, "word\(number)")
        }
        #expect(items.filter { $0.attributeSet.displayName == "x\u{FFFD}.txt" }.count == 3)
        let second = try await source.refresh(into: index)
        #expect(second.unchanged == 4 && second.indexed == 0 && second.removed == 0, "\(second)")
    }

    /// Two names that differ only in Unicode normalization are equal as Swift strings; as
    /// files they are two, found unchanged again and removed one without the other.
    @Test func namesThatDifferOnlyInNormalizationAreTwoFiles() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        let composed = Array("caf\u{E9}.txt".utf8)
        let decomposed = Array("cafe\u{301}.txt".utf8)
        try Self.create(composed, in: scope, text: "composedword")
        try Self.create(decomposed, in: scope, text: "decomposedword and more")
        let index = try folder.index()
        let source = FileSource(scopes: [scope])
        #expect(try await source.refresh(into: index).indexed == 2)
        let second = try await source.refresh(into: index)
        #expect(second.unchanged == 2 && second.indexed == 0, "\(second)")
        Self.remove(decomposed, in: scope)
        let third = try await source.refresh(into: index)
        #expect(third.removed == 1 && third.unchanged == 1, "\(third)")
        #expect(try await index.ids(.fullText("decomposedword")).isEmpty)
        #expect(try await index.ids(.fullText("composedword")).count == 1)
    }

    /// Every path's identifier maps back to its exact bytes; a UTF-8 path is its own identifier,
    /// and no `file://` identifier is a UTF-8 path's.
    @Test func identifiersMapBackToTheExactBytes() {
        let paths: [[UInt8]] = [
            Array("/notes/plain.txt".utf8),
            Array("/notes/é ü 100% #1?.txt\n".utf8),
            Array("/notes/caf".utf8) + [0xE9] + Array(".txt".utf8),
            Array("/notes/%E9 é".utf8) + [0xE9, 0x25, 0xC3],
            Array("/notes/".utf8) + [0xF0, 0x9F, 0x98] + Array("/x".utf8),
            Array("/".utf8) + [0x80, 0xFF, 0xC0, 0xAF, 0xED, 0xA0, 0x80],
        ]
        for bytes in paths {
            let path = FileItemPath(bytes: bytes)
            #expect(FileItemPath(identifier: path.identifier)?.bytes == bytes, "\(path.identifier)")
            #expect(path.identifier.hasPrefix("/") == path.isUTF8)
            #expect(!path.identifier.contains("\u{FFFD}") || path.shown.contains("\u{FFFD}"))
            #expect(path.identifier.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F } || path.isUTF8, "one printable line")
        }
        #expect(FileItemPath(bytes: Array("/a/caf".utf8) + [0xE9] + Array(" x.txt".utf8)).identifier == "file:///a/caf%E9%20x.txt")
        #expect(FileItemPath(identifier: "file:///a/%GG") == nil)
        #expect(FileItemPath(identifier: "notes") == nil)
    }

    /// A folder the depth cap keeps the walk out of hides the items beneath it whatever their
    /// names: one that is not UTF-8 under a UTF-8 folder, and any name under a folder whose own
    /// name is not UTF-8.
    @Test func aCapHidesItemsWhoseNamesAreNotUTF8() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        let deep = scope.appendingPathComponent((0..<34).map { "d\($0)" }.joined(separator: "/"))
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let name = Array("deep".utf8) + [0xFF] + Array(".txt".utf8)
        try Self.create(name, in: deep, text: "deepbyteword")
        let oddFolder = Array("odd".utf8) + [0xFE]
        let oddPath = Array(scope.path.utf8) + [UInt8(ascii: "/")] + oddFolder
        let created = (oddPath + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
        try #require(created == 0)
        let inOdd = Array((0..<34).map { "e\($0)" }.joined(separator: "/").utf8)
        var made = oddPath
        for component in inOdd.split(separator: UInt8(ascii: "/")) {
            made += [UInt8(ascii: "/")] + component
            _ = (made + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
        }
        let file = made + Array("/plain.txt".utf8) + [0]
        let descriptor = file.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        try #require(descriptor >= 0)
        _ = write(descriptor, "oddfolderword", 13)
        close(descriptor)
        // FileManager cannot remove names that are not UTF-8; rm can.
        defer { try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", "--", scope.path]).waitUntilExit() }
        let index = try folder.index()
        var source = FileSource(scopes: [scope])
        source.maximumDepth = 40
        let first = try await source.refresh(into: index)
        #expect(first.indexed == 2, "\(first.skipped)")
        source.maximumDepth = 32
        let second = try await source.refresh(into: index)
        #expect(second.limitsReached == [.depth(32)])
        #expect(second.removed == 0, "items beneath folders not entered are not taken for gone")
        #expect(try await index.ids(.fullText("deepbyteword")).count == 1)
        #expect(try await index.ids(.fullText("oddfolderword")).count == 1)
    }

    /// A character device in the folder is skipped by its type, never opened (making one needs
    /// CAP_MKNOD; without it the test checks nothing more than the refresh).
    @Test func aCharacterDeviceIsSkippedByType() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        // Major 1, minor 5: /dev/zero.
        let device = scope.appendingPathComponent("zero.txt").path
        let made = mknod(device, S_IFCHR | 0o644, dev_t(1 << 8 | 5)) == 0
        try Self.create(Array("note.txt".utf8), in: scope, text: "noteword")
        let index = try folder.index()
        let report = try await FileSource(scopes: [scope]).refresh(into: index)
        #expect(report.indexed == 1)
        if made {
            #expect(report.skipped[device]?.contains("character device") == true, "\(report.skipped)")
        }
    }

    /// /proc, /proc/self and /sys are skipped by their file system's type before anything in
    /// them is listed or read: indexing /proc used to block on /proc/kmsg.
    @Test(arguments: ["/proc", "/proc/self", "/sys"])
    func pseudoFileSystemsAreSkippedByType(scope: String) async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let finished = try await Self.within(60) {
            try await FileSource(scopes: [URL(fileURLWithPath: scope)]).refresh(into: index)
        }
        let report = try #require(finished, "the refresh of \(scope) did not finish within 60 s")
        #expect(report.indexed == 0)
        #expect(report.skipped.count == 1, "\(report.skipped.count) skipped")
        #expect(report.skipped.values.allSatisfy { $0.contains("pseudo-filesystem") }, "\(report.skipped.prefix(5))")
        #expect(try await index.count() == 0)
    }

    @Test func aFileCutAtTheTextCapIsReported() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        try Self.create(Array("exact.txt".utf8), in: scope, text: "exactword " + String(repeating: "x", count: 90))
        let index = try folder.index()
        var source = FileSource(scopes: [scope])
        source.maximumFileBytes = 100
        let first = try await source.refresh(into: index)
        #expect(first.indexed == 1)
        #expect(first.limitsReached.isEmpty, "a file of exactly the cap is read whole")

        try Self.create(Array("long.txt".utf8), in: scope, text: "headword " + String(repeating: "y", count: 200) + " tailword")
        let second = try await source.refresh(into: index)
        #expect(second.indexed == 1)
        #expect(second.limitsReached == [.fileBytes(100)])
        #expect(second.reachedLimit)
        #expect(FileSourceLimit.fileBytes(100).description.contains("100 bytes"))
        #expect(try await index.ids(.fullText("headword")).count == 1)
        #expect(try await index.ids(.fullText("tailword")).isEmpty)
        let third = try await source.refresh(into: index)
        #expect(third.unchanged == 2)
        #expect(third.limitsReached == [.fileBytes(100)], "the unchanged item is still cut")
    }

    /// A read that would block for ever (a pipe no one writes to) gives up at its deadline with
    /// a reason; a read that ends is returned whole.
    @Test func aReadThatBlocksStopsAtItsDeadline() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        defer { try? writer.close() }
        let start = ContinuousClock.now
        let outcome = try await Self.within(20) { () -> String in
            do {
                let data = try await FileTextExtractor.read(reader, upToCount: 1_000, timeout: .milliseconds(300))
                return "read \(data.count) bytes"
            } catch {
                return "\(error)"
            }
        }
        let reason = try #require(outcome, "the read did not stop at its deadline")
        #expect(reason.contains("longer than"), "\(reason)")
        #expect(ContinuousClock.now - start >= .milliseconds(300))

        var others: [Int32] = [0, 0]
        try #require(pipe(&others) == 0)
        let full = FileHandle(fileDescriptor: others[0], closeOnDealloc: true)
        let source = FileHandle(fileDescriptor: others[1], closeOnDealloc: true)
        try source.write(contentsOf: Data("pipedword".utf8))
        try source.close()
        let data = try await FileTextExtractor.read(full, upToCount: 1_000, timeout: .seconds(10))
        #expect(String(decoding: data, as: UTF8.self) == "pipedword")
    }
}

/// Resumes a continuation with whichever result comes first.
private final class FirstResult<T: Sendable>: Sendable {
    let continuation: Mutex<CheckedContinuation<Result<T, any Error>?, Never>?>
    init(_ continuation: CheckedContinuation<Result<T, any Error>?, Never>) { self.continuation = Mutex(continuation) }
    func finish(_ result: Result<T, any Error>?) { continuation.withLock { $0.take() }?.resume(returning: result) }
}
