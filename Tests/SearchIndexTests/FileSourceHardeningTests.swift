import Foundation
import Synchronization
import Testing
@testable import SearchIndex

/// A refresh stopped short by a cap still removes the items of files it knows are gone, and says
/// which cap it hit; a file that turns into a FIFO between the walk and its reading is refused
/// instead of hanging the refresh.
@Suite struct FileSourceHardeningTests {
    static func put(_ text: String, _ path: String, in folder: URL) throws {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    @Test func aFolderDeeperThanTheCapStillLetsDeletionsThrough() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        let deep = (0..<34).map { "d\($0)" }.joined(separator: "/")
        try Self.put("keptword", "kept.txt", in: scope)
        try Self.put("goneword", "gone.txt", in: scope)
        try Self.put("deepword", deep + "/deep.txt", in: scope)
        let index = try folder.index()
        var source = FileSource(scopes: [scope])
        source.maximumDepth = 40
        #expect(try await source.refresh(into: index).indexed == 3)

        // With the default cap the deep folder is not entered: its file is kept, unseen, while
        // the file that really went is removed.
        try FileManager.default.removeItem(at: scope.appendingPathComponent("gone.txt"))
        source.maximumDepth = 32
        let report = try await source.refresh(into: index)
        #expect(report.removed == 1)
        #expect(report.limitsReached == [.depth(32)])
        #expect(report.reachedLimit)
        let unentered = scope.appendingPathComponent((0..<33).map { "d\($0)" }.joined(separator: "/")).path
        #expect(report.skipped[unentered]?.contains("32") == true, "\(report.skipped)")
        #expect(try await index.ids(.fullText("goneword")).isEmpty)
        #expect(try await index.ids(.fullText("deepword")).count == 1, "a file the walk did not reach is not taken for gone")
        #expect(try await index.count() == 2)
        #expect(FileSourceLimit.depth(32).description.contains("32 folders"))
    }

    @Test func theFileCountCapStillLetsDeletionsThrough() async throws {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        for number in 0..<5 { try Self.put("capword word\(number)", "f\(number).txt", in: scope) }
        let index = try folder.index()
        var source = FileSource(scopes: [scope])
        source.maximumFileCount = 3
        let first = try await source.refresh(into: index)
        #expect(first.indexed == 3)
        #expect(first.limitsReached == [.fileCount(3)])
        try FileManager.default.removeItem(at: scope.appendingPathComponent("f0.txt"))
        let second = try await source.refresh(into: index)
        #expect(second.removed == 1)
        #expect(try await index.ids(.fullText("word0")).isEmpty)
        #expect(second.limitsReached == [.fileCount(3)])
    }

    /// The walk lists a regular file; before it is read, it is replaced by a FIFO with a writer
    /// waiting on the other end. Opened as a file, it would block (with no writer, forever) or
    /// be read as a stream; it must be refused as not a regular file.
    @Test(arguments: ["b.txt", "b.pdf"])
    func aFileSwappedForAFIFOIsRefusedNotWaitedOn(name: String) async throws {
        signal(SIGPIPE, SIG_IGN)
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("scope")
        try Self.put("firstword", "a.txt", in: scope)
        if name.hasSuffix(".pdf") {
            try FileSourceTests.pdf("fifoword").write(to: scope.appendingPathComponent(name))
        } else {
            try Self.put("plainword", name, in: scope)
        }
        let swapped = scope.appendingPathComponent(name).path
        let writerDone = DispatchSemaphore(value: 0)
        let swaps = Mutex(0)
        let index = try folder.index()
        let report = try await FileSource(scopes: [scope]).refresh(into: index) { progress in
            guard progress.path.hasSuffix("a.txt"), swaps.withLock({ $0 += 1; return $0 }) == 1 else { return }
            unlink(swapped)
            guard mkfifo(swapped, 0o644) == 0 else { return }
            Thread.detachNewThread {
                let descriptor = open(swapped, O_WRONLY)
                if descriptor >= 0 {
                    _ = "fifoword fifoword\n".withCString { write(descriptor, $0, strlen($0)) }
                    close(descriptor)
                }
                writerDone.signal()
            }
        }
        // Let the writer go if nothing opened the FIFO for reading while it waited.
        let release = open(swapped, O_RDONLY | O_NONBLOCK)
        writerDone.wait()
        if release >= 0 { close(release) }

        #expect(swaps.withLock { $0 } == 1)
        #expect(report.skipped[swapped]?.contains("not a regular file") == true, "\(report.skipped)")
        #expect(try await index.ids(.fullText("fifoword")).isEmpty)
        #expect(try await index.ids(.fullText("firstword")).count == 1)
    }
}
