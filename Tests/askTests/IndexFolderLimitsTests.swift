import Foundation
import Testing

/// `ask index --folder` on folders a careless user points it at: a kernel pseudo-filesystem,
/// and a file past the text cap.
@Suite struct IndexFolderLimitsTests {
    /// /proc holds files that block when read (/proc/kmsg): the folder is skipped by its type.
    @Test func procIsSkippedAsAPseudoFilesystemAndTheRunEnds() throws {
        let ask = try AskProcess()
        // The timeout only keeps a hang from stalling the suite: a run killed by it fails below.
        let result = try ask.run(["index", "--folder", "/proc", "--index", "proc", "--embedding-model", "none"], timeout: 300)
        #expect(!result.killedBySignal, "it hung (killed after 300 s): \(result.stderr.suffix(400))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("skipped /proc: on the pseudo-filesystem proc"), "\(result.stdout)")
    }

    @Test func aFileCutAtTheTextCapIsReported() throws {
        let ask = try AskProcess()
        let folder = ask.dataHome.url.appendingPathComponent("long")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let line = "The heron waited by the reeds until the tide turned.\n"
        try Data(String(repeating: line, count: (5 << 20) / line.utf8.count).utf8).write(to: folder.appendingPathComponent("long.txt"))
        try Data("a short note\n".utf8).write(to: folder.appendingPathComponent("short.txt"))

        let result = try ask.run(["index", "--folder", folder.path, "--index", "long", "--embedding-model", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("files longer than 4.2 MB were indexed up to that much of their text"), "\(result.stdout)")
        #expect(!result.stdout.contains("the walk stopped"), "the text cap stops no walk: \(result.stdout)")

        let json = try ask.run(["index", "--folder", folder.path, "--index", "long", "--embedding-model", "none", "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let limits = report?["limitsReached"] as? [String] ?? []
        #expect(limits.contains { $0.hasPrefix("the text cap") }, "an unchanged refresh reports it too: \(limits)")
    }
}
