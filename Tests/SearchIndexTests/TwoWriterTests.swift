import Foundation
import Testing
@testable import SearchIndex

/// Two processes writing one index file. The writer keeps word shortlists in memory between its
/// writes (CFullText's recorder); another process's writes must not be lost or double-counted by
/// them: after any interleaving, every word's shortlist and item count agree with FTS5, and FTS5
/// holds exactly the words of the items stored.
@Suite struct TwoWriterTests {
    /// One `lantern-index-crash-probe writer` child: commands in on stdin, one answer line out.
    final class Writer {
        let process = Process()
        private let input = Pipe(), output = Pipe()
        private var pending = Data()

        init(_ file: URL) throws {
            process.executableURL = try BatchTests.probeExecutable()
            process.arguments = ["writer", file.path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func send(_ command: String) {
            input.fileHandleForWriting.write(Data((command + "\n").utf8))
        }

        /// The next answer line ("" when the child ended without one).
        func reply() -> String {
            while !pending.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
            }
            let end = pending.firstIndex(of: UInt8(ascii: "\n")) ?? pending.endIndex
            let line = String(decoding: pending[..<end], as: UTF8.self)
            pending = Data(pending[min(pending.endIndex, end + 1)...])
            return line
        }

        func run(_ command: String) -> String {
            send(command)
            return reply()
        }

        func quit() {
            send("quit")
            process.waitUntilExit()
        }
    }

    /// Checks the file against FTS5 itself: for every word of the probe's vocabulary, the stored
    /// item count is FTS5's count of matching rows, the shortlist ranks exactly as FTS5 does, and
    /// the items FTS5 matches are those whose stored text holds the word.
    static func expectAgreesWithFTS5(_ file: URL, vocabulary: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let index = try SearchableIndex(url: file)
        let reader = try SQLiteDatabase(path: file.path, readOnly: true)
        let all = try await index.search(SearchQuery(.all, sort: [], limit: nil)).map(\.item.uniqueIdentifier)
        let texts = try await index.fetchItems(identifiers: all)
        for word in vocabulary {
            let term = try #require(reader.singleToken(word), sourceLocation: sourceLocation) // stemmed: "sedge" is "sedg"
            let stored = try reader.query("SELECT count FROM term_shortlists WHERE term = \(term)") { $0.integer(0) }.first ?? 0
            let phrase = "\"\(word)\""
            let counted = try reader.query("SELECT count(*) FROM fts WHERE fts MATCH \(phrase)") { $0.integer(0) }.first ?? -1
            #expect(stored == counted, "the shortlist of \"\(word)\" says \(stored) items, FTS5 has \(counted)", sourceLocation: sourceLocation)
            let holding = Set(texts.filter { item in
                let words = ((item.attributeSet.title ?? "") + " " + (item.attributeSet.textContent ?? "")).split(separator: " ")
                return words.contains { $0 == word }
            }.map(\.uniqueIdentifier))
            let matched = try await index.search(SearchQuery(.fullText(word), limit: nil, ranking: .mostRecent(matches: 1 << 40)))
            #expect(Set(matched.map(\.item.uniqueIdentifier)) == holding, "FTS5's items for \"\(word)\"", sourceLocation: sourceLocation)
        }
        try await TermShortlistTests().expectShortlistsRankExactly(index, words: vocabulary, sourceLocation: sourceLocation)
        let check = try await index.checkShortlists()
        #expect(check.isSound, "\(check.disagreements)", sourceLocation: sourceLocation)
        #expect(check.itemCount == all.count && check.wordCount >= vocabulary.count, sourceLocation: sourceLocation)
        #expect(try reader.query("PRAGMA integrity_check") { $0.text(0) } == ["ok"], sourceLocation: sourceLocation)
    }

    /// The two writers take turns, command by command, so each one's in-memory shortlists are
    /// stale at every turn: the other has written the same words (and replaced and deleted the
    /// same items) in between.
    @Test func writersTakingTurnsKeepShortlistsExact() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("shared.sqlite")
        let first = try Writer(file), second = try Writer(file)
        defer { first.quit(); second.quit() }
        let vocabulary = first.run("vocabulary").split(separator: " ").map(String.init)
        #expect(vocabulary.contains("lake"))
        let turns: [(Writer, String)] = [
            (first, "write 1 0 300"), (second, "write 2 200 500"), (first, "write 3 100 250"), (second, "delete 0 50"),
            (first, "batch 4 400 600"), (second, "write 5 250 450"), (first, "delete 120 180"), (second, "batch 6 0 100"),
            (first, "write 7 500 650"), (second, "delete 600 640"), (first, "write 8 180 260"), (second, "write 9 170 200"),
            // One folds the log into the file (marking it closed) while the other goes on writing.
            (first, "checkpoint"), (second, "write 10 0 30"), (first, "delete 20 25"),
        ]
        var present = Set<String>()
        for (writer, command) in turns {
            #expect(writer.run(command) == "ok", "\(command)")
            guard command != "checkpoint" else { continue }
            let numbers = command.split(separator: " ").compactMap { Int($0) }
            let ids = (numbers[numbers.count - 2]..<numbers[numbers.count - 1]).map { "w\($0)" }
            if command.hasPrefix("delete") { present.subtract(ids) } else { present.formUnion(ids) }
        }
        let index = try SearchableIndex(url: file)
        #expect(try await index.ids(.all) == present)
        try await Self.expectAgreesWithFTS5(file, vocabulary: vocabulary)
    }

    /// Both writers at once on a new file, each writing, replacing and deleting random items over
    /// the same identifiers in many small transactions and a few batches; several times over.
    @Test(arguments: 0..<3)
    func writersRacingOnANewIndexKeepShortlistsExact(run: Int) async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("raced.sqlite")
        let first = try Writer(file), second = try Writer(file)
        defer { first.quit(); second.quit() }
        first.send("run \(2 * run + 11) 200")
        second.send("run \(2 * run + 12) 200")
        #expect(first.reply() == "ok")
        #expect(second.reply() == "ok")
        let vocabulary = first.run("vocabulary").split(separator: " ").map(String.init)
        try await Self.expectAgreesWithFTS5(file, vocabulary: vocabulary)
    }
}
