import Foundation
@testable import SearchIndex
import Testing

/// `ask index` processes writing one index name: a refresh waits for the writer before it and
/// compares against what that writer left; a second source under the same name is refused with
/// the flag that replaces it; `--check` compares the index with its folder or corpus.
@Suite struct IndexSourceTests {
    static let noVectors = ["--embedding-model", "none"]

    static func corpus(_ ask: AskProcess, ids: [String], name: String = "three.jsonl") throws -> URL {
        try ask.dataHome.write(ids.map { "{\"id\": \"\($0)\", \"attributes\": {\"title\": \"Item \($0)\"}}" }.joined(separator: "\n"), to: name)
    }

    static func count(_ ask: AskProcess, _ name: String) async throws -> Int {
        try await SearchableIndex(url: IndexCheckTests.indexFile(ask, name)).count()
    }

    /// The race: a folder index whose files changed, refreshed by two processes while a
    /// third writes a corpus under the same name. Nothing of the folder may be lost.
    @Test func twoFolderRefreshesAndACorpusAtOnceLoseNothing() async throws {
        let ask = try AskProcess()
        let notes = ask.dataHome.url.appendingPathComponent("notes")
        try IndexCheckTests.writeNotes(300, into: notes)
        let built = try ask.run(["index", "--folder", notes.path, "--index", "conc"] + Self.noVectors)
        #expect(built.status == 0, "\(built.stderr)")
        for number in 0..<51 {
            try Data("changed \(number)\n".utf8).write(to: notes.appendingPathComponent("n\(number).txt"))
        }
        let corpus = try Self.corpus(ask, ids: ["a", "b", "c"])
        let results = try IndexCheckTests.runTogether(ask, [
            ["index", "--folder", notes.path, "--index", "conc"] + Self.noVectors,
            ["index", "--folder", notes.path, "--index", "conc"] + Self.noVectors,
            ["index", "--corpus", corpus.path, "--index", "conc"] + Self.noVectors,
        ])
        for result in results { #expect(!result.killedBySignal) }
        #expect(results[0].status == 0, "\(results[0].stderr)")
        #expect(results[1].status == 0, "\(results[1].stderr)")
        #expect(results[2].status == 1, "the corpus is refused: \(results[2].stdout)")
        #expect(results[2].stderr.contains("built from the folder") && results[2].stderr.contains("--replace"), "\(results[2].stderr)")
        let indexed = results.prefix(2).map(\.stdout).joined()
        #expect(indexed.contains("indexed 51 files"), "one refresh indexes the changed files: \(indexed)")
        #expect(indexed.contains("(300 unchanged"), "the other finds them unchanged, after the first: \(indexed)")

        #expect(try await Self.count(ask, "conc") == 300)
        let check = try ask.run(["index", "--check", "conc"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// While another writer holds the lock, a refresh waits, then compares with what that
    /// writer left: items it deleted meanwhile come back, not "unchanged".
    @Test func aRefreshComparesWithTheIndexAsTheWriterBeforeItLeftIt() async throws {
        let ask = try AskProcess()
        let notes = ask.dataHome.url.appendingPathComponent("notes")
        try IndexCheckTests.writeNotes(40, into: notes)
        #expect(try ask.run(["index", "--folder", notes.path, "--index", "held"] + Self.noVectors).status == 0)
        let file = IndexCheckTests.indexFile(ask, "held")

        var held: IndexWriterLock? = try await IndexWriterLock.acquire(for: file)
        let process = ask.process(["index", "--folder", notes.path, "--index", "held"] + Self.noVectors)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line it writes says it waits (today's ask; before the lock it ran through).
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("\n") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        #expect(String(decoding: said, as: UTF8.self).contains("waiting for another writer (process \(getpid()))"))
        let gone = (0..<10).map { notes.appendingPathComponent("n\($0).txt").resolvingSymlinksInPath().path }
        let index = try SearchableIndex(url: file)
        try await index.deleteSearchableItems(withIdentifiers: gone)
        #expect(try await index.count() == 30)
        #expect(held != nil)
        held = nil
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try await index.count() == 40, "the refresh saw the deleted items as missing and indexed them again")
    }

    /// The sequence: folder, corpus, folder again under one name.
    @Test func anotherSourceIsRefusedUntilItReplacesTheIndex() async throws {
        let ask = try AskProcess()
        let notes = ask.dataHome.url.appendingPathComponent("notes")
        try IndexCheckTests.writeNotes(20, into: notes)
        let corpus = try Self.corpus(ask, ids: ["a", "b", "c"])
        #expect(try ask.run(["index", "--folder", notes.path, "--index", "seq"] + Self.noVectors).status == 0)

        let refused = try ask.run(["index", "--corpus", corpus.path, "--index", "seq"] + Self.noVectors)
        #expect(refused.status == 1)
        for named in [notes.resolvingSymlinksInPath().path, corpus.resolvingSymlinksInPath().path, "--replace"] {
            #expect(refused.stderr.contains(named), "\(refused.stderr)")
        }
        let again = try ask.run(["index", "--folder", notes.path, "--index", "seq"] + Self.noVectors)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try await Self.count(ask, "seq") == 20)
        #expect(try ask.run(["index", "--check", "seq"]).status == 0)

        let replaced = try ask.run(["index", "--corpus", corpus.path, "--index", "seq", "--replace"] + Self.noVectors)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try await Self.count(ask, "seq") == 3)
        #expect(try ask.run(["index", "--check", "seq"]).status == 0)
        #expect(try ask.run(["index", "--check", "seq", "--replace"]).status == 2, "--replace goes with a source")
    }

    @Test func checkFailsWhenTheFolderAndTheIndexDisagree() async throws {
        let ask = try AskProcess()
        let notes = ask.dataHome.url.appendingPathComponent("notes")
        try IndexCheckTests.writeNotes(10, into: notes)
        #expect(try ask.run(["index", "--folder", notes.path, "--index", "drift"] + Self.noVectors).status == 0)
        #expect(try ask.run(["index", "--check", "drift"]).status == 0)

        try FileManager.default.removeItem(at: notes.appendingPathComponent("n3.txt"))
        try Data("a note written after the index\n".utf8).write(to: notes.appendingPathComponent("late.txt"))
        let check = try ask.run(["index", "--check", "drift", "--json"])
        #expect(check.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let source = report?["source"] as? [String: Any]
        #expect(source?["missing"] as? [String] == [notes.appendingPathComponent("late.txt").resolvingSymlinksInPath().path])
        #expect(source?["extra"] as? [String] == [notes.appendingPathComponent("n3.txt").resolvingSymlinksInPath().path])
        #expect(report?["sound"] as? Bool == false)

        let plain = try ask.run(["index", "--check", "drift"])
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("ask index --folder"), "it says how to bring the index up to date: \(plain.stdout)")
        #expect(try ask.run(["index", "--folder", notes.path, "--index", "drift"] + Self.noVectors).status == 0)
        #expect(try ask.run(["index", "--check", "drift"]).status == 0)
    }

    @Test func checkFailsWhenTheCorpusChanged() throws {
        let ask = try AskProcess()
        let corpus = try Self.corpus(ask, ids: ["a", "b", "c"])
        #expect(try ask.run(["index", "--corpus", corpus.path, "--index", "items"] + Self.noVectors).status == 0)
        #expect(try ask.run(["index", "--check", "items"]).status == 0)
        _ = try Self.corpus(ask, ids: ["a", "b", "d"])
        let check = try ask.run(["index", "--check", "items"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("missing from the index: d") && check.stdout.contains("not in the source: c"), "\(check.stdout)")
    }
}
