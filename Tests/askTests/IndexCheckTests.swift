import Foundation
@testable import SearchIndex
import Testing

/// `ask index` as a process: two of them on one new index, `--check` and `--repair` of the word
/// shortlists, `--json` listing every skipped file, the file alone holding the index when the
/// command ends, and the messages for an old-format file and for one missing its `-wal`.
@Suite struct IndexCheckTests {
    /// Runs several `ask` processes at once and waits for all of them.
    static func runTogether(_ ask: AskProcess, _ argumentLists: [[String]]) throws -> [AskProcess.Result] {
        let started = try argumentLists.map { arguments -> (Process, Pipe, Pipe) in
            let process = ask.process(arguments)
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return (process, output, errors)
        }
        return started.map { process, output, errors in
            let stdout = output.fileHandleForReading.readDataToEndOfFile()
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return AskProcess.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                     stderr: String(decoding: stderr, as: UTF8.self), killedBySignal: process.terminationReason == .uncaughtSignal)
        }
    }

    static func indexFile(_ ask: AskProcess, _ name: String) -> URL {
        ask.dataHome.url.appendingPathComponent("lantern/indexes/\(name).sqlite")
    }

    /// Notes where "lake" is in two files of three, with words enough for shortlists to matter.
    static func writeNotes(_ count: Int, into folder: URL) throws {
        let words = ["heron", "reed", "marsh", "tide", "egret", "willow", "otter", "fern"]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 0..<count {
            let body = (0..<(5 + number % 17)).map { words[($0 * 7 + number) % words.count] }.joined(separator: " ")
            try Data("note \(number) \(number % 3 == 0 ? "" : "lake ") \(body)\n".utf8)
                .write(to: folder.appendingPathComponent("n\(number).txt"))
        }
    }

    @Test func twoIndexProcessesOnOneNewIndexLeaveItsShortlistsSound() async throws {
        let ask = try AskProcess()
        let notes = ask.dataHome.url.appendingPathComponent("notes")
        try Self.writeNotes(1_500, into: notes)
        // words only: this is about the word shortlists (IndexVectorsTests covers the vectors)
        let results = try Self.runTogether(ask, [["index", "--folder", notes.path, "--index", "shared", "--embedding-model", "none"],
                                                 ["index", "--folder", notes.path, "--index", "shared", "--embedding-model", "none"]])
        for result in results { #expect(result.status == 0, "\(result.stderr)") }

        let check = try ask.run(["index", "--check", "shared"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("agree with the full-text index"), "\(check.stdout)")
        let index = try SearchableIndex(url: Self.indexFile(ask, "shared"))
        #expect(try await index.count() == 1_500)
        let lake = try await index.searchCountingFoundItems(SearchQuery(.fullText("lake"), limit: 10))
        #expect(lake.foundItemCount == 1_000, "one-word counts come from the shortlist")
        #expect(try await index.checkShortlists().isSound)
    }

    @Test func checkNamesTheWordsThatDisagreeAndRepairMendsThem() async throws {
        let ask = try AskProcess()
        try Self.writeNotes(300, into: ask.dataHome.url.appendingPathComponent("notes"))
        #expect(try ask.run(["index", "--folder", ask.dataHome.url.appendingPathComponent("notes").path, "--index", "notes",
                             "--embedding-model", "none"]).status == 0)
        let sound = try ask.run(["index", "--check", "notes"])
        #expect(sound.status == 0, "\(sound.stdout)\(sound.stderr)")
        #expect(sound.stdout.contains("300 items"), "\(sound.stdout)")

        let file = try SQLiteDatabase(path: Self.indexFile(ask, "notes").path, readOnly: false)
        try file.run("UPDATE term_shortlists SET count = 31 WHERE term = 'lake'")
        let broken = try ask.run(["index", "--check", "notes"])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("\"lake\": its shortlist says 31 items, the full-text index has 200"), "\(broken.stdout)")
        #expect(broken.stdout.contains("ask index --repair notes"), "\(broken.stdout)")
        let json = try ask.run(["index", "--check", "notes", "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["sound"] as? Bool == false)
        #expect((object["disagreements"] as? [[String: Any]])?.compactMap { $0["word"] as? String } == ["lake"])

        let repair = try ask.run(["index", "--repair", "notes"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout.contains("lake"))
        #expect(try ask.run(["index", "--check", "notes"]).status == 0)
        let usage = try ask.run(["index", "--check", "notes", "--folder", "x"])
        #expect(usage.status == 2)
    }

    @Test func indexJSONListsEverySkippedFileAndWhy() throws {
        let ask = try AskProcess()
        let scope = ask.dataHome.url.appendingPathComponent("mixed")
        try Self.writeNotes(3, into: scope)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: scope.appendingPathComponent("photo.png"))
        try Data([0x41, 0x00, 0x42]).write(to: scope.appendingPathComponent("blob.dat"))
        #expect(mkfifo(scope.appendingPathComponent("pipe.txt").path, 0o644) == 0)
        let expected = [
            scope.appendingPathComponent("photo.png").path: "binary file type",
            scope.appendingPathComponent("blob.dat").path: "binary content",
            scope.appendingPathComponent("pipe.txt").path: "not a regular file",
        ]

        let result = try ask.run(["index", "--folder", scope.path, "--index", "mixed", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["indexed"] as? Int == 3)
        let skipped = try #require(object["skipped"] as? [[String: String]])
        #expect(Set(skipped.compactMap { $0["path"] }) == Set(expected.keys))
        for entry in skipped {
            let path = entry["path"] ?? ""
            #expect(entry["reason"]?.contains(expected[path] ?? "?") == true, "\(entry)")
        }

        // The text output lists them too, after the summary.
        try Data("changed".utf8).write(to: scope.appendingPathComponent("n0.txt"))
        let text = try ask.run(["index", "--folder", scope.path, "--index", "mixed"])
        for path in expected.keys { #expect(text.stdout.contains("skipped \(path): "), "\(text.stdout)") }
    }

    /// ask ends with _exit, so SQLite never folds the log into the file; `ask index` does it
    /// itself, and a copy of NAME.sqlite alone is the whole index.
    @Test func afterAskIndexTheFileAloneIsTheWholeIndex() async throws {
        let ask = try AskProcess()
        let corpus = (0..<2_000).map { #"{"id": "c\#($0)", "attributes": {"title": "Note \#($0)", "textContent": "lake shore walk \#($0)"}}"# }
        let file = ask.dataHome.url.appendingPathComponent("walks.jsonl")
        try Data(corpus.joined(separator: "\n").utf8).write(to: file)
        let built = try ask.run(["index", "--corpus", file.path, "--embedding-model", "none"])
        #expect(built.status == 0, "\(built.stderr)")

        let elsewhere = try AskProcess()
        let copy = Self.indexFile(elsewhere, "walks")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.indexFile(ask, "walks"), to: copy)
        let index = try SearchableIndex(url: copy)
        #expect(try await index.count() == 2_000)
        #expect(try await index.search(SearchQuery(.fullText("lake"), limit: 3)).count == 3)
        let check = try elsewhere.run(["index", "--check", "walks"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func anOlderFormatAndAMissingLogGetTheirOwnMessages() async throws {
        let ask = try AskProcess()
        let folder = ask.dataHome.url.appendingPathComponent("lantern/indexes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase(path: folder.appendingPathComponent("older.sqlite").path, readOnly: false)
        try older.execute("CREATE TABLE items(rowid INTEGER PRIMARY KEY); PRAGMA user_version = 3;")

        // An index whose writer is still at work: its items are in the log only.
        let source = try SearchableIndex(url: ask.dataHome.url.appendingPathComponent("source.sqlite"))
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.textContent = "lake"
        try await source.indexSearchableItems([SearchableItem(uniqueIdentifier: "one", attributeSet: set)])
        try FileManager.default.copyItem(at: source.fileURL, to: folder.appendingPathComponent("copied.sqlite"))

        let oldFormat = try ask.run(["index", "--check", "older"])
        #expect(oldFormat.status == 1)
        #expect(oldFormat.stderr.contains("older Lantern (index format 3)"), "\(oldFormat.stderr)")
        #expect(!oldFormat.stderr.contains("-wal"))

        let missingLog = try ask.run(["index", "--check", "copied"])
        #expect(missingLog.status == 1)
        #expect(missingLog.stderr.contains("copied.sqlite-wal"), "\(missingLog.stderr)")
        #expect(!missingLog.stderr.contains("older"), "\(missingLog.stderr)")
        #expect(missingLog.stderr.split(separator: "\n").count == 1)
    }
}
