import Foundation
import SearchIndex
#if canImport(Glibc)
import Glibc
#endif

/// Section "reliability" (issue 28, "Figures to keep"): the real `ask` binary indexing as a user
/// runs it, one writer beside three readers on one index, and a writer killed mid-batch.
///
/// Every process is a child of the harness with its own XDG_DATA_HOME: `ask index` for the
/// corpus and the folder, and this executable's own child modes (`bench reliability-writer`,
/// `bench reliability-reader`) for the writer and the readers, which use SearchableIndex's API
/// directly so a reader does not load a model. There is no reference; the figures measured when
/// the issue was filed are given in the notes.
enum ReliabilityBenchmark {
    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let ask = try BenchmarkEnvironment.askBinary()
        let bench = Bundle.main.executableURL ?? ask.deletingLastPathComponent().appendingPathComponent("bench")
        let itemCount = environment.quick ? 10_000 : 100_000
        let fileCount = environment.quick ? 2_000 : 20_000
        let concurrentSeconds = environment.quick ? 10.0 : 20.0

        let work = environment.workDirectory.appendingPathComponent("reliability")
        try? FileManager.default.removeItem(at: work)
        let home = work.appendingPathComponent("xdg-data"), logs = work.appendingPathComponent("logs")
        for folder in [home, logs] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: work) }
        var rows: [BenchmarkRow] = []
        var notes: [String] = []

        // 1. A JSON Lines corpus, the index section's generated notes.
        let corpus = work.appendingPathComponent("notes.jsonl")
        try writeCorpus(IndexBenchmark.notes(count: itemCount), to: corpus)
        let corpusRun = try await timedChild(ask, ["index", "--corpus", corpus.path, "--index", "corpus"] + wordsOnly, home: home, logs: logs, timeout: 900)
        rows.append(BenchmarkRow(metric: "ask index --corpus, \(itemCount.formatted()) items: wall time", ours: corpusRun.seconds, unit: "s",
                                 higherIsBetter: false, note: environment.quick ? nil : "(18.2 s when issue 28 was filed)"))
        rows.append(BenchmarkRow(metric: "ask index --corpus, \(itemCount.formatted()) items: peak resident memory (VmHWM)",
                                 ours: Double(corpusRun.peak) / mebibyte, unit: "MiB", higherIsBetter: false,
                                 note: environment.quick ? nil : "(523 MB when issue 28 was filed)"))

        // 2. A folder of small Markdown files, then a refresh that finds nothing changed.
        let folder = work.appendingPathComponent("notes")
        try writeMarkdownFolder(IndexBenchmark.notes(count: fileCount), to: folder)
        let folderRun = try await timedChild(ask, ["index", "--folder", folder.path, "--index", "folder"] + wordsOnly, home: home, logs: logs, timeout: 900)
        let refreshRun = try await timedChild(ask, ["index", "--folder", folder.path, "--index", "folder"] + wordsOnly, home: home, logs: logs, timeout: 900)
        rows.append(BenchmarkRow(metric: "ask index --folder, \(fileCount.formatted()) Markdown files: wall time", ours: folderRun.seconds, unit: "s",
                                 higherIsBetter: false, note: environment.quick ? nil : "(5.9 s when issue 28 was filed)"))
        rows.append(BenchmarkRow(metric: "ask index --folder, no-op refresh of the same folder: wall time", ours: refreshRun.seconds, unit: "s",
                                 higherIsBetter: false, note: environment.quick ? nil : "(2.35 s when issue 28 was filed)"))

        // 3. One writer and three readers at once on the corpus index.
        let indexPath = home.appendingPathComponent("lantern/indexes/corpus.sqlite").path
        let seconds = String(concurrentSeconds)
        let writer = try Child(bench, ["reliability-writer", indexPath, seconds], home: home, logs: logs)
        let readers = try (0..<3).map { _ in try Child(bench, ["reliability-reader", indexPath, seconds], home: home, logs: logs) }
        let outcomes = try await waitAll([writer] + readers, timeout: concurrentSeconds + 120)
        let written = try decode(WriterTally.self, outcomes[0], "the writer")
        let read = try outcomes.dropFirst().map { try decode(ReaderTally.self, $0, "a reader") }
        let searches = read.map(\.searches).reduce(0, +), readerBusy = read.map(\.busy).reduce(0, +)
        let otherErrors = read.map(\.errors).reduce(0, +) + written.errors
        rows.append(BenchmarkRow(metric: "1 writer + 3 readers, \(Int(concurrentSeconds)) s: searches done by the readers", ours: Double(searches), unit: "",
                                 higherIsBetter: true, note: "(\(read.map { String($0.searches) }.joined(separator: ", ")) per reader)"))
        rows.append(BenchmarkRow(metric: "1 writer + 3 readers: batches committed by the writer", ours: Double(written.batches), unit: "",
                                 higherIsBetter: true, note: "(\(written.items.formatted()) items)"))
        rows.append(BenchmarkRow(metric: "1 writer + 3 readers: busy errors (readers and writer)", ours: Double(readerBusy + written.busy), unit: "",
                                 goal: 0, higherIsBetter: false))
        rows.append(BenchmarkRow(metric: "1 writer + 3 readers: other errors", ours: Double(otherErrors), unit: "", goal: 0, higherIsBetter: false,
                                 note: (read.compactMap(\.lastError) + [written.lastError].compactMap { $0 }).first.map { "(\(String($0.prefix(160))))" }))
        let afterConcurrent = await check(ask, shortlistsOnly: true, home: home, logs: logs)
        rows.append(BenchmarkRow(metric: "ask index --check after writer + readers: shortlists disagree (1) or not (0)", ours: Double(afterConcurrent.code), unit: "",
                                 goal: 0, higherIsBetter: false, note: afterConcurrent.problem.map { "(\($0))" }))

        // 4. Faults: the writer SIGKILLed in the middle of a batch.
        let before = try await SearchableIndex(url: URL(fileURLWithPath: indexPath)).count()
        let victim = try Child(bench, ["reliability-writer", indexPath, "endless"], home: home, logs: logs)
        let opened = ContinuousClock.now + .seconds(60)
        while !victim.output.contains("BATCH-OPEN") {
            guard victim.process.isRunning, ContinuousClock.now < opened else {
                victim.kill()
                throw BenchmarkFailure("the writer to be killed never opened its batch: \(victim.output.suffix(400))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(500))   // well into the batch, writing
        // a reader beside the open batch: how many searches it gets done in 2 s (its tally comes after the kill)
        let sideReaderStart = ContinuousClock.now
        let sideReader = try Child(bench, ["reliability-reader", indexPath, "2"], home: home, logs: logs)
        while sideReader.process.isRunning && ContinuousClock.now < sideReaderStart + .seconds(3) { try await Task.sleep(for: .milliseconds(20)) }
        let openedItems = victim.output.split(separator: "\n").last(where: { $0.hasPrefix("WRITTEN ") }).map { String($0.dropFirst(8)) } ?? "?"
        let aliveAtKill = victim.process.isRunning
        victim.kill()
        _ = try await waitAll([victim], timeout: 30, requireSuccess: false)
        let sideRead = try decode(ReaderTally.self, try await waitAll([sideReader], timeout: 120)[0], "the reader beside the open batch")
        let sideSeconds = (ContinuousClock.now - sideReaderStart).seconds
        var faultProblem: String?
        if !aliveAtKill || victim.process.terminationReason != .uncaughtSignal {
            throw BenchmarkFailure("the writer to be killed had already exited (status \(victim.process.terminationStatus)): \(victim.output.suffix(400))")
        }
        var after = -1
        do { after = try await SearchableIndex(url: URL(fileURLWithPath: indexPath)).count() } catch { faultProblem = "the index did not open: \(error)" }
        let afterKill = await check(ask, shortlistsOnly: true, home: home, logs: logs)
        rows.append(BenchmarkRow(metric: "kill -9 of the writer mid-batch: the index opens (0 = yes)", ours: faultProblem == nil ? 0 : 1, unit: "",
                                 goal: 0, higherIsBetter: false,
                                 note: faultProblem.map { "(\(String($0.prefix(160))))" } ?? "(\(before.formatted()) items before, \(after.formatted()) after; the writer had reported \(openedItems) items written into its open batch\(after == before ? "; none of them is in the index after" : ""))"))
        rows.append(BenchmarkRow(metric: "a reader beside a writer's open batch: searches in its 2 s", ours: Double(sideRead.searches), unit: "",
                                 higherIsBetter: true,
                                 note: "(the reader ran \(String(format: "%.1f", sideSeconds)) s, until after the writer was killed at 3 s; \(sideRead.busy) busy, \(sideRead.errors) other errors)"))
        rows.append(BenchmarkRow(metric: "kill -9 of the writer mid-batch: ask index --check, shortlists disagree (1) or not (0)", ours: Double(afterKill.code), unit: "",
                                 goal: 0, higherIsBetter: false, note: afterKill.problem.map { "(\($0))" }))

        // 5. Two sources on one index name (issue 55): the race, and a folder, a corpus and the folder again.
        rows += try await sourceRows(ask, folder: folder, fileCount: fileCount, work: work, home: home, logs: logs)

        notes.append("Sizes: \(itemCount.formatted()) corpus items (the index section's generated notes as JSON Lines, title, textContent, keywords, rating), "
                     + "\(fileCount.formatted()) Markdown files in folders of 500" + (environment.quick ? " (--quick; the full run uses 100,000 and 20,000)." : "."))
        notes.append("Each `ask index` is a child process with its own XDG_DATA_HOME and --embedding-model none, timed from spawn to exit, its VmHWM polled every 20 ms. "
                     + "The writer (`bench reliability-writer`) commits batches of 500 new items (5 calls of 100) for \(Int(concurrentSeconds)) s while three "
                     + "`bench reliability-reader` processes open the same index file and run one-word full-text searches (top 10) in a loop; "
                     + "a busy error is SearchIndexError.indexBusy or SQLITE_BUSY/SQLITE_LOCKED from any call.")
        notes.append("When issue 28 was filed (its machine and load not recorded): 100,000-item corpus 18.2 s and 523 MB peak; "
                     + "20,000 Markdown files 5.9 s, no-op refresh 2.35 s; one writer with three readers, no busy errors. "
                     + "That corpus and folder are not known to be these generated ones, so the times compare only roughly.")
        notes.append("Two sources, one name: \(changedInRace) of the folder's files changed, then two `ask index --folder` and one `ask index --corpus` (3 items) "
                     + "started at once on the folder's index; then a 20-file folder indexed, a 3-item corpus under the same name, the folder again. "
                     + "Before issue 55 the race left 54 of 300 items and the sequence kept the corpus's 3 items beside the folder's.")
        notes.append("Faults tried: kill -9 of a writer holding an open batch (after it printed BATCH-OPEN, 0.5 s more of writing and up to 3 s while a reader ran beside it), "
                     + "then the index opened in this process and `ask index --check corpus` run; also `ask index --check` after the writer and readers.")
        return SectionReport(name: "reliability", title: "Reliability: ask index at size, one writer with three readers, kill -9",
                             reference: "none (no reference program; the figures from issue 28 are in the notes)", rows: rows, notes: notes)
    }

    private static let mebibyte = 1024.0 * 1024

    // MARK: Inputs

    static func writeCorpus(_ notes: IndexBenchmark.NoteSequence, to url: URL) throws {
        var data = Data()
        data.reserveCapacity(notes.count * 700)
        for note in notes {
            let line: [String: Any] = ["id": note.id, "domain": "notes", "contentType": "public.text",
                                       "attributes": ["title": note.title, "textContent": note.body, "keywords": note.keywords, "rating": note.rating]]
            data.append(try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]))
            data.append(0x0A)
        }
        try data.write(to: url)
    }

    static func writeMarkdownFolder(_ notes: IndexBenchmark.NoteSequence, to folder: URL) throws {
        for (number, note) in notes.enumerated() {
            let subfolder = folder.appendingPathComponent(String(format: "part-%03d", number / 500))
            if number % 500 == 0 { try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true) }
            let text = "# \(note.title)\n\nTags: \(note.keywords.joined(separator: ", "))\n\n\(note.body)\n"
            try Data(text.utf8).write(to: subfolder.appendingPathComponent("\(note.id).md"))
        }
    }

    // MARK: Children

    /// Runs `ask` (through MemoryBenchmark.runChild, which throws on a non-zero exit) and times it.
    static func timedChild(_ executable: URL, _ arguments: [String], home: URL, logs: URL, timeout: Double) async throws -> (seconds: Double, peak: Int) {
        let start = ContinuousClock.now
        let peak = try await MemoryBenchmark.runChild(executable, arguments, dataHome: home, log: logs, timeout: timeout)
        return ((ContinuousClock.now - start).seconds, peak)
    }

    /// Every `ask index` here builds words only: this section is about the index's files and
    /// processes (the embedding and vectors sections measure embedding). With the default
    /// embedding model the 10,000-item corpus alone took longer than the 900 s allowed.
    static let wordsOnly = ["--embedding-model", "none"]

    /// Files of the folder changed before the race of two folder refreshes and a corpus.
    static let changedInRace = 51

    /// The rows of two sources writing one index name: the race (two refreshes of the folder
    /// index after `changedInRace` files changed, and a corpus, at once), then a folder, a
    /// corpus and the folder again under a new name.
    static func sourceRows(_ ask: URL, folder: URL, fileCount: Int, work: URL, home: URL, logs: URL) async throws -> [BenchmarkRow] {
        let three = work.appendingPathComponent("three.jsonl")
        try Data((1...3).map { "{\"id\": \"other-\($0)\", \"attributes\": {\"title\": \"Item \($0)\"}}" }.joined(separator: "\n").utf8).write(to: three)
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
        for name in files.prefix(changedInRace) {
            let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(name))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\nChanged before the race.\n".utf8))
            try handle.close()
        }
        let start = ContinuousClock.now
        let racers = try [["--folder", folder.path], ["--folder", folder.path], ["--corpus", three.path]].map {
            try Child(ask, ["index"] + $0 + ["--index", "folder"] + wordsOnly, home: home, logs: logs)
        }
        let raced = try await waitAll(racers, timeout: 900, requireSuccess: false)
        let raceSeconds = (ContinuousClock.now - start).seconds
        let indexFile = { (name: String) in home.appendingPathComponent("lantern/indexes/\(name).sqlite") }
        let afterRace = try await SearchableIndex(url: indexFile("folder")).count()
        let raceCheck = await check(ask, name: "folder", home: home, logs: logs)
        let statuses = raced.map { String($0.status) }.joined(separator: ", ")

        let small = work.appendingPathComponent("small-folder")
        try writeMarkdownFolder(IndexBenchmark.notes(count: 20), to: small)
        _ = try await waitAll([try Child(ask, ["index", "--folder", small.path, "--index", "seq"] + wordsOnly, home: home, logs: logs)], timeout: 300)
        let corpusOnFolder = try await waitAll([try Child(ask, ["index", "--corpus", three.path, "--index", "seq"] + wordsOnly, home: home, logs: logs)],
                                               timeout: 300, requireSuccess: false)[0]
        _ = try await waitAll([try Child(ask, ["index", "--folder", small.path, "--index", "seq"] + wordsOnly, home: home, logs: logs)], timeout: 300)
        let seqIndex = try SearchableIndex(url: indexFile("seq"))
        let foreign = try await seqIndex.fetchItems(identifiers: ["other-1", "other-2", "other-3"]).count
        let seqCount = try await seqIndex.count()
        let seqCheck = await check(ask, name: "seq", home: home, logs: logs)
        return [
            BenchmarkRow(metric: "2 folder refreshes + 1 corpus at once on one index: folder items lost", ours: Double(fileCount - afterRace), unit: "",
                         goal: 0, higherIsBetter: false,
                         note: "(\(afterRace.formatted()) of \(fileCount.formatted()) items after; exit codes \(statuses): the corpus refused; all three done in \(String(format: "%.1f", raceSeconds)) s)"),
            BenchmarkRow(metric: "2 folder refreshes + 1 corpus at once: ask index --check exit code", ours: Double(raceCheck.code), unit: "",
                         goal: 0, higherIsBetter: false, note: raceCheck.problem.map { "(\($0))" }),
            BenchmarkRow(metric: "folder, corpus, folder again under one name: corpus items left in the folder's index", ours: Double(foreign), unit: "",
                         goal: 0, higherIsBetter: false,
                         note: "(the corpus run exited \(corpusOnFolder.status); \(seqCount) items after, of 20 files)"),
            BenchmarkRow(metric: "folder, corpus, folder again: ask index --check exit code", ours: Double(seqCheck.code), unit: "",
                         goal: 0, higherIsBetter: false, note: seqCheck.problem.map { "(\($0))" }),
        ]
    }

    /// `ask index --check NAME`: its exit code (1 when it could not run or was killed) and what it
    /// said when not 0. With `shortlistsOnly`, the verdict on the index's own soundness alone (its
    /// `--json` shortlist disagreements): the writer of the concurrency rows adds items through
    /// the library, so its index rightly disagrees with the corpus that built it.
    static func check(_ ask: URL, name: String = "corpus", shortlistsOnly: Bool = false, home: URL, logs: URL) async -> (code: Int32, problem: String?) {
        do {
            let child = try Child(ask, ["index", "--check", name] + (shortlistsOnly ? ["--json"] : []), home: home, logs: logs)
            let outcome = try await waitAll([child], timeout: 600, requireSuccess: false)[0]
            if shortlistsOnly {
                struct Found: Decodable { let disagreements: [Disagreement]; struct Disagreement: Decodable { let word: String } }
                guard let start = outcome.output.firstIndex(of: "{"),
                      let found = try? JSONDecoder().decode(Found.self, from: Data(outcome.output[start...].utf8)) else {
                    return (1, String(outcome.output.suffix(200)))
                }
                return found.disagreements.isEmpty ? (0, nil) : (1, "shortlists of \(found.disagreements.map(\.word).prefix(5).joined(separator: ", ")) disagree")
            }
            return (outcome.status, outcome.status == 0 ? nil : String(outcome.output.suffix(200)))
        } catch {
            return (1, String(String(describing: error).prefix(200)))
        }
    }


    /// A child process with its own XDG_DATA_HOME (and any other variables in `environment`) and
    /// its output (stdout and stderr) in a log file.
    final class Child {
        let process = Process()
        let log: URL
        init(_ executable: URL, _ arguments: [String], home: URL, environment extra: [String: String] = [:], logs: URL) throws {
            log = logs.appendingPathComponent("\(arguments.first ?? "child")-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.executableURL = executable
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = home.path
            environment.merge(extra) { $1 }
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            try? handle.close()
            ChildProcesses.shared.register(process.processIdentifier)
        }
        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }
        deinit { ChildProcesses.shared.unregister(process.processIdentifier) }
    }

    struct Outcome { var status: Int32; var output: String }

    /// Waits for every child, killing the rest and throwing when `timeout` passes; throws on a non-zero exit when `requireSuccess`.
    static func waitAll(_ children: [Child], timeout: Double, requireSuccess: Bool = true) async throws -> [Outcome] {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while children.contains(where: { $0.process.isRunning }) {
            if ContinuousClock.now >= deadline {
                children.forEach { $0.kill() }
                throw BenchmarkFailure("child processes did not finish within \(Int(timeout)) s and were killed: "
                                       + children.map { "\($0.process.arguments?.first ?? "") \($0.output.suffix(200))" }.joined(separator: "; "))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let outcomes = children.map { Outcome(status: $0.process.terminationStatus, output: $0.output) }
        if requireSuccess, let failed = outcomes.firstIndex(where: { $0.status != 0 }) {
            throw BenchmarkFailure("\(children[failed].process.arguments?.joined(separator: " ") ?? "a child") exited \(outcomes[failed].status): \(outcomes[failed].output.suffix(400))")
        }
        return outcomes
    }

    static func decode<T: Decodable>(_ type: T.Type, _ outcome: Outcome, _ who: String) throws -> T {
        guard let line = outcome.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let value = try? JSONDecoder().decode(T.self, from: Data(line.utf8)) else {
            throw BenchmarkFailure("\(who) printed no tally: \(outcome.output.suffix(400))")
        }
        return value
    }

    struct WriterTally: Codable { var batches = 0, items = 0, busy = 0, errors = 0; var lastError: String? }
    struct ReaderTally: Codable { var searches = 0, busy = 0, errors = 0; var lastError: String? }

    static func isBusy(_ error: Error) -> Bool {
        guard let error = error as? SearchIndexError else { return false }
        switch error {
        case .indexBusy: return true
        case let .database(_, code, _): return code & 0xff == 5 || code & 0xff == 6   // SQLITE_BUSY, SQLITE_LOCKED
        default: return false
        }
    }

    // MARK: Child modes

    /// `bench reliability-writer INDEX SECONDS`: commits batches of 500 new items for SECONDS and
    /// prints a WriterTally. `bench reliability-writer INDEX endless`: opens one batch and writes
    /// into it until killed, printing BATCH-OPEN after its first call and WRITTEN N after each.
    static func writerMain(path: String, duration: String) async -> Int32 {
        var tally = WriterTally()
        let tag = "w\(getpid())"
        var generator = IndexBenchmark.Generator(state: UInt64(getpid()))
        var counter = 0
        func items(_ count: Int) -> [SearchableItem] {
            (0..<count).map { _ in
                counter += 1
                var set = SearchableItemAttributeSet(contentType: "public.text")
                set.title = (0..<4).map { _ in IndexBenchmark.word(&generator) }.joined(separator: " ")
                set.textContent = (0..<60).map { _ in IndexBenchmark.word(&generator) }.joined(separator: " ")
                return SearchableItem(uniqueIdentifier: "\(tag)-\(counter)", domainIdentifier: "writer", attributeSet: set)
            }
        }
        func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
        let index: SearchableIndex
        do { index = try SearchableIndex(url: URL(fileURLWithPath: path)) } catch {
            tally.errors += 1
            tally.lastError = "opening: \(error)"
            say(String(decoding: (try? JSONEncoder().encode(tally)) ?? Data(), as: UTF8.self))
            return 1
        }
        if duration == "endless" {
            do {
                try await index.beginBatch()
                while true {
                    try await index.indexSearchableItems(items(100))
                    if counter == 100 { say("BATCH-OPEN") }
                    say("WRITTEN \(counter)")
                }
            } catch {
                say("error: \(error)")
                return 1
            }
        }
        let end = ContinuousClock.now + .seconds(Double(duration) ?? 10)
        while ContinuousClock.now < end {
            do {
                try await index.beginBatch()
                for _ in 0..<5 { try await index.indexSearchableItems(items(100)) }
                try await index.endBatch(clientState: Data("reliability \(counter)".utf8))
                tally.batches += 1
                tally.items = counter
            } catch {
                if isBusy(error) { tally.busy += 1 } else { tally.errors += 1 }
                tally.lastError = String(describing: error)
                try? await index.endBatch(clientState: Data())
            }
        }
        say(String(decoding: (try? JSONEncoder().encode(tally)) ?? Data(), as: UTF8.self))
        return 0
    }

    /// `bench reliability-reader INDEX SECONDS`: opens the index and runs one-word full-text
    /// searches (top 10) for SECONDS, then prints a ReaderTally.
    static func readerMain(path: String, duration: String) async -> Int32 {
        var tally = ReaderTally()
        var generator = IndexBenchmark.Generator(state: UInt64(getpid()) &* 31)
        let end = ContinuousClock.now + .seconds(Double(duration) ?? 10)
        var index: SearchableIndex?
        while ContinuousClock.now < end {
            do {
                if index == nil { index = try SearchableIndex(url: URL(fileURLWithPath: path)) }
                _ = try await index?.search(SearchQuery(.fullText(IndexBenchmark.word(&generator)), limit: 10))
                tally.searches += 1
            } catch {
                if isBusy(error) { tally.busy += 1 } else { tally.errors += 1 }
                tally.lastError = String(describing: error)
            }
        }
        let line = String(decoding: (try? JSONEncoder().encode(tally)) ?? Data(), as: UTF8.self) + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        return 0
    }
}
