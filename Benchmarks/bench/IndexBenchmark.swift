import Foundation
import SearchIndex

/// The SearchIndex section: builds an N-item index of generated notes and measures indexing,
/// size, full-text and filtered queries and aggregations, each beside the same work done by raw
/// SQLite (Python's sqlite3 module, Benchmarks/reference/index_reference.py) on the same rows.
enum IndexBenchmark {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A deterministic generator (SplitMix64), so every run indexes the same notes.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    struct Note {
        var id: String, title: String, body: String, keywords: [String]
        var created: Double, modified: Double, due: Double, rating: Double, size: Double, effort: Double
    }

    static let vocabulary: [String] = {
        var generator = Generator(state: 42)
        let syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "en", "dar", "pel", "qu", "ost", "ri", "an", "bel", "cor", "di", "fa", "gu"]
        var words = Set<String>()
        var ordered: [String] = []
        while ordered.count < 4_000 {
            let word = (0..<(2 + generator.below(2))).map { _ in syllables[generator.below(syllables.count)] }.joined()
            if words.insert(word).inserted { ordered.append(word) }
        }
        return ordered
    }()

    /// Zipf-like: low indexes are common words.
    static func word(_ generator: inout Generator) -> String {
        vocabulary[min(vocabulary.count - 1, Int(pow(generator.unit(), 3) * Double(vocabulary.count)))]
    }

    /// The generated notes, made one at a time as they are read, so that ten million of them
    /// never sit in memory at once; every pass over the same count yields the same notes.
    struct NoteSequence: Sequence {
        let count: Int

        struct Iterator: IteratorProtocol {
            let count: Int
            var number = 0
            var generator = IndexBenchmark.Generator(state: 7)

            mutating func next() -> Note? {
                guard number < count else { return nil }
                defer { number += 1 }
                let start = 1_609_459_200.0 // 2021-01-01
                let title = (0..<(3 + generator.below(4))).map { _ in word(&generator) }.joined(separator: " ").capitalized
                let body = (0..<(70 + generator.below(21))).map { _ in word(&generator) }.joined(separator: " ")
                let keywords = (0..<3).map { _ in "tag\(generator.below(50))" }
                let created = start + generator.unit() * 3 * 365 * 86_400
                return Note(id: "note-\(number)", title: title, body: body, keywords: keywords, created: created,
                            modified: created + generator.unit() * 30 * 86_400, due: created + generator.unit() * 60 * 86_400,
                            rating: Double(1 + generator.below(5)), size: Double(200 + generator.below(5_000)),
                            effort: (generator.unit() * 100).rounded() / 10)
            }
        }

        func makeIterator() -> Iterator { Iterator(count: count) }
    }

    static func notes(count: Int) -> NoteSequence { NoteSequence(count: count) }

    /// Indexes `notes` into `index` in one batch, in chunks of 1,000: how the index section
    /// builds its file and the searchtool section its own when it cannot reuse that one.
    static func indexNotes(_ notes: NoteSequence, into index: SearchableIndex, effortKey: CustomAttributeKey?, clientState: String) async throws {
        try await index.beginBatch()
        var chunk: [SearchableItem] = []
        chunk.reserveCapacity(1_000)
        for note in notes {
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = note.title
            set.textContent = note.body
            set.keywords = note.keywords
            set.contentCreationDate = Date(timeIntervalSince1970: note.created)
            set.contentModificationDate = Date(timeIntervalSince1970: note.modified)
            set.dueDate = Date(timeIntervalSince1970: note.due)
            set.rating = note.rating
            set.fileSize = note.size
            if let effortKey { set.setValue(.number(note.effort), forCustomKey: effortKey) }
            chunk.append(SearchableItem(uniqueIdentifier: note.id, domainIdentifier: "notes", attributeSet: set))
            if chunk.count == 1_000 {
                try await index.indexSearchableItems(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try await index.indexSearchableItems(chunk)
        try await index.endBatch(clientState: Data(clientState.utf8))
    }

    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func milliseconds(_ work: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await work()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// CPU seconds this process has used (all threads). While the index is built only the
    /// writer works, so the difference over the build is its CPU cost, which other work on a
    /// shared machine does not inflate the way it inflates wall-clock time.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Builds per side for the indexing rows (see `run`).
    static let buildRounds = 3

    /// Runs the raw-SQLite reference script: a build, then (unless `buildOnly`) the queries.
    static func runReference(rowsFile: URL, queriesFile: URL, workDirectory: URL, buildOnly: Bool) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("reference/index_reference.py")
        process.arguments = ["python3", script.path, rowsFile.path, queriesFile.path, workDirectory.appendingPathComponent("reference.sqlite").path]
            + (buildOnly ? ["--build-only"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let reference = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "the raw-SQLite reference script failed (status \(process.terminationStatus)); run it by hand: python3 \(script.path)")
        }
        return reference
    }

    static func number(_ result: [String: Any], _ key: String) -> Double { (result[key] as? NSNumber)?.doubleValue ?? 0 }

    /// One size's figures, ours and the reference's: the builds' rates, the sizes on disk, and
    /// each query's samples under the keys index_reference.py gives its own.
    struct Measurement {
        var itemCount: Int
        var ourRates: [Double], ourCPURates: [Double], referenceRates: [Double], referenceCPURates: [Double]
        var ourBytes: Double
        var ours: [String: [Double]]
        /// Per query, in the order of its samples: the items holding any of its words.
        var postings: [String: [Double]]
        /// Per two-word query: the items holding both words, each one scored.
        var twoWordMatches: [Double]
        var reference: [String: Any]

        func theirs(_ key: String) -> [Double] { reference[key] as? [Double] ?? [] }

        /// Each query's time in µs per 1,000 items it reads (`samples`, in ms, in the order of the queries).
        func microsecondsPerThousandRead(_ key: String, _ samples: [Double]) -> [Double] {
            zip(samples, postings[key] ?? []).map { milliseconds, postings in milliseconds * 1_000_000 / max(postings, 1) }
        }
        var referenceBytes: Double { IndexBenchmark.number(reference, "bytes") }
    }

    /// The bounded ranking (`FullTextRanking.mostRecent`) scores only this many newest matches.
    static let boundedMatches = 2_000
    /// How many times each aggregate runs.
    static let aggregateRepeat = 15

    /// Builds `itemCount` generated notes into our index and the reference's, `buildRounds`
    /// times each, then runs the same queries on both.
    static func measure(itemCount: Int, buildRounds: Int, workDirectory: URL) async throws -> Measurement {
        let manager = FileManager.default
        try manager.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let effortKey = CustomAttributeKey(keyName: "effort_hours")

        // The same rows and queries for both sides.
        var generator = Generator(state: 99)
        let twoWord = (0..<200).map { _ in [vocabulary[100 + generator.below(900)], vocabulary[100 + generator.below(900)]] }
        // "Common": ranks 10–50, each in roughly 10–30% of notes; "stop": ranks 0–4, in nearly every note.
        let common = (0..<100).map { _ in vocabulary[10 + generator.below(40)] }
        let stop = (0..<30).map { _ in vocabulary[generator.below(5)] }
        let since = 1_609_459_200.0 + 365 * 86_400
        let filtered = (0..<100).map { _ in vocabulary[20 + generator.below(200)] }
        let rowsFile = workDirectory.appendingPathComponent("rows.tsv")
        try writeRows(notes(count: itemCount), to: rowsFile)
        let queriesFile = workDirectory.appendingPathComponent("queries.json")
        let queries: [String: Any] = ["twoWord": twoWord, "common": common, "stop": stop, "aggregateRepeat": aggregateRepeat,
                                      "boundedMatches": boundedMatches,
                                      "filtered": filtered.map { ["word": $0, "since": since] as [String: Any] }]
        try JSONSerialization.data(withJSONObject: queries).write(to: queriesFile)

        // Builds alternate, ours then the reference's, `buildRounds` times each, so that a
        // change in the machine's speed during the section falls on both sides alike; the rates
        // are the medians. The queries run on our last build and the reference's last (full) run.
        let indexFile = workDirectory.appendingPathComponent("lantern-bench.sqlite")
        let timeZone = TimeZone(identifier: "UTC") ?? .current
        var ourRates: [Double] = [], ourCPURates: [Double] = [], referenceRates: [Double] = [], referenceCPURates: [Double] = []
        var builtIndex: SearchableIndex?
        for round in 0..<buildRounds {
            builtIndex = nil
            for suffix in ["", "-wal", "-shm"] { try? manager.removeItem(atPath: indexFile.path + suffix) }
            let fresh = try SearchableIndex(url: indexFile, timeZone: timeZone)
            let cpuBefore = processCPUSeconds()
            let indexingMs = try await milliseconds {
                try await indexNotes(notes(count: itemCount), into: fresh, effortKey: effortKey, clientState: "bench")
            }
            ourRates.append(Double(itemCount) / (indexingMs / 1_000))
            ourCPURates.append(Double(itemCount) / (processCPUSeconds() - cpuBefore))
            builtIndex = fresh
            if round < buildRounds - 1 {
                let build = try runReference(rowsFile: rowsFile, queriesFile: queriesFile, workDirectory: workDirectory, buildOnly: true)
                referenceRates.append(number(build, "itemsPerSecond"))
                referenceCPURates.append(number(build, "itemsPerCPUSecond"))
            }
        }
        guard let index = builtIndex else { throw Failure(description: "no index was built") }
        try await index.checkpoint()
        let ourBytes = ["", "-wal"].compactMap { (try? manager.attributesOfItem(atPath: indexFile.path + $0))?[.size] as? NSNumber }
            .reduce(0) { $0 + $1.intValue }

        func timed(_ runs: Int = 1, _ bodies: [() async throws -> Void]) async throws -> [Double] {
            var samples: [Double] = []
            for _ in 0..<runs { for body in bodies { samples.append(try await milliseconds(body)) } }
            return samples
        }
        let ftsTwo = try await timed(1, twoWord.map { words in { _ = try await index.search(SearchQuery(.fullText(words.joined(separator: " ")), limit: 10)) } })
        let ftsStop = try await timed(1, stop.map { word in { _ = try await index.search(SearchQuery(.fullText(word), limit: 10)) } })
        let ftsCommon = try await timed(1, common.map { word in { _ = try await index.search(SearchQuery(.fullText(word), limit: 10)) } })
        let bounded = FullTextRanking.mostRecent(matches: boundedMatches)
        let ftsStopBounded = try await timed(1, stop.map { word in { _ = try await index.search(SearchQuery(.fullText(word), limit: 10, ranking: bounded)) } })
        let ftsCommonBounded = try await timed(1, common.map { word in { _ = try await index.search(SearchQuery(.fullText(word), limit: 10, ranking: bounded)) } })
        let filteredSamples = try await timed(1, filtered.map { word in {
            _ = try await index.search(SearchQuery(.and([.fullText(word), .compare(.rating, .greaterOrEqual, .number(4)),
                                                         .compare(.contentCreationDate, .greaterOrEqual, .date(Date(timeIntervalSince1970: since)))]),
                                                   limit: 10))
        } })
        let count = try await timed(aggregateRepeat, [{ _ = try await index.aggregate(.count, where: .compare(.rating, .greaterOrEqual, .number(4))) }])
        let groupBy = try await timed(aggregateRepeat, [{ _ = try await index.aggregate(.groupBy(.rating)) }])
        let groupByMonth = try await timed(aggregateRepeat, [{ _ = try await index.aggregate(.groupByDate(.contentCreationDate, unit: .month)) }])

        // What each full-text query reads, counted after the timings: FTS5 walks the postings of
        // every item holding one of its words; a two-word query scores the items holding both.
        func holding(_ text: String) async throws -> Double { Double(try await index.count(where: .fullText(text))) }
        var twoWordPostings: [Double] = [], twoWordMatches: [Double] = [], filteredPostings: [Double] = []
        for words in twoWord {
            twoWordPostings.append(try await holding(words[0]) + holding(words[1]))
            twoWordMatches.append(try await holding(words.joined(separator: " ")))
        }
        for word in filtered { filteredPostings.append(try await holding(word)) }

        // Reference: its last build, then the same queries.
        let reference = try runReference(rowsFile: rowsFile, queriesFile: queriesFile, workDirectory: workDirectory, buildOnly: false)
        referenceRates.append(number(reference, "itemsPerSecond"))
        referenceCPURates.append(number(reference, "itemsPerCPUSecond"))
        return Measurement(itemCount: itemCount, ourRates: ourRates, ourCPURates: ourCPURates, referenceRates: referenceRates,
                           referenceCPURates: referenceCPURates, ourBytes: Double(ourBytes),
                           ours: ["ftsTwoWord": ftsTwo, "ftsStop": ftsStop, "ftsCommon": ftsCommon, "ftsStopBounded": ftsStopBounded,
                                  "ftsCommonBounded": ftsCommonBounded, "filtered": filteredSamples, "count": count,
                                  "groupBy": groupBy, "groupByMonth": groupByMonth],
                           postings: ["ftsTwoWord": twoWordPostings, "filtered": filteredPostings],
                           twoWordMatches: twoWordMatches, reference: reference)
    }

    /// The rows the reference script reads, written as they are generated (tab-separated).
    static func writeRows(_ notes: NoteSequence, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw Failure(description: "cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var tsv = ""
        for note in notes {
            tsv += [note.id, note.title, note.body, note.keywords.joined(separator: " "), "\(note.created)", "\(note.modified)",
                    "\(note.due)", "\(note.rating)", "\(note.size)", "\(note.effort)"].joined(separator: "\t") + "\n"
            if tsv.utf8.count > 8_000_000 {
                try handle.write(contentsOf: Data(tsv.utf8))
                tsv = ""
            }
        }
        try handle.write(contentsOf: Data(tsv.utf8))
    }

    static func run(itemCount: Int, workDirectory: URL) async throws -> SectionReport {
        let measured = try await measure(itemCount: itemCount, buildRounds: buildRounds, workDirectory: workDirectory)
        let (ourRates, ourCPURates, referenceRates, referenceCPURates) =
            (measured.ourRates, measured.ourCPURates, measured.referenceRates, measured.referenceCPURates)
        func samples(_ key: String) -> [Double] { measured.theirs(key) }
        func ours(_ key: String) -> [Double] { measured.ours[key] ?? [] }
        func buildSpread(_ ours: Sample, _ theirs: Sample) -> String { "ours \(ours.spread); reference \(theirs.spread);" }
        // The builds' rates in the order they ran, so a drift of the machine's speed shows.
        func inOrder(_ ours: [Double], _ theirs: [Double]) -> String {
            "in run order " + zip(ours, theirs).map { String(format: "%.0f / %.0f", $0, $1) }.joined(separator: ", ") + " (ours / reference)"
        }
        let (rate, referenceRate) = (Sample(ourRates), Sample(referenceRates))
        let (cpuRate, referenceCPURate) = (Sample(ourCPURates), Sample(referenceCPURates))
        return SectionReport(
            name: "index",
            title: "SearchIndex at \(itemCount) generated notes",
            reference: referenceDescription(measured),
            rows: [
                BenchmarkRow(metric: "indexing rate, median", ours: rate.median, reference: referenceRate.median, unit: "items/s", goal: 0.9,
                             higherIsBetter: true, spread: buildSpread(rate, referenceRate),
                             note: "\(buildRounds) builds per side, alternating, \(inOrder(ourRates, referenceRates)); one batch, chunks of 1,000 items; wall clock"),
                BenchmarkRow(metric: "indexing rate per CPU second, median", ours: cpuRate.median,
                             reference: referenceCPURate.median, unit: "items/s", goal: 0.9, higherIsBetter: true,
                             spread: buildSpread(cpuRate, referenceCPURate),
                             note: "the same builds in process CPU time, which a loaded shared machine distorts less, \(inOrder(ourCPURates, referenceCPURates))"),
                BenchmarkRow(metric: "size on disk", ours: measured.ourBytes / 1_048_576, reference: measured.referenceBytes / 1_048_576, unit: "MiB",
                             goal: nil, higherIsBetter: false, note: "after a WAL checkpoint"),
                latencyRow("full-text two-word top-10 p50", ours("ftsTwoWord"), samples("ftsTwoWord"), p: 0.5, absoluteGoal: 5),
                latencyRow("full-text two-word top-10 p99", ours("ftsTwoWord"), samples("ftsTwoWord"), p: 0.99, absoluteGoal: 50),
                latencyRow("full-text common-word top-10 p50", ours("ftsCommon"), samples("ftsCommon"), p: 0.5, absoluteGoal: 5),
                latencyRow("full-text common-word top-10 p99", ours("ftsCommon"), samples("ftsCommon"), p: 0.99, absoluteGoal: 50),
                latencyRow("full-text stop-word top-10 p50", ours("ftsStop"), samples("ftsStop"), p: 0.5, absoluteGoal: nil),
                latencyRow("common-word top-10 of newest \(boundedMatches) matches p50", ours("ftsCommonBounded"), samples("ftsCommonBounded"), p: 0.5, absoluteGoal: 5),
                latencyRow("common-word top-10 of newest \(boundedMatches) matches p99", ours("ftsCommonBounded"), samples("ftsCommonBounded"), p: 0.99, absoluteGoal: 50),
                latencyRow("stop-word top-10 of newest \(boundedMatches) matches p50", ours("ftsStopBounded"), samples("ftsStopBounded"), p: 0.5, absoluteGoal: nil),
                latencyRow("filtered full-text top-10 p50", ours("filtered"), samples("filtered"), p: 0.5, absoluteGoal: nil),
                latencyRow("filtered full-text top-10 p99", ours("filtered"), samples("filtered"), p: 0.99, absoluteGoal: nil),
                latencyRow("count (rating ≥ 4) p50", ours("count"), samples("count"), p: 0.5, absoluteGoal: 200),
                latencyRow("group by rating p50", ours("groupBy"), samples("groupBy"), p: 0.5, absoluteGoal: 200),
                latencyRow("group by month p50", ours("groupByMonth"), samples("groupByMonth"), p: 0.5, absoluteGoal: 200),
            ],
            notes: [
                "Ours stores per item: an items row (unique identifier; day numbers and numbers first in the row, text after) with partial indexes on rating, fileSize, contentType, domain and one (day, date) index for each of the 3 dates; 3 keyword rows (WITHOUT ROWID, keyed by attribute number, value, item) and the per-keyword item counts every write keeps; a custom-value row (WITHOUT ROWID, keyed by item, key, position) with 1 index entry on (key, number); the full-text input (compressed only when ≥ 2 KiB) outside a contentless FTS5 table over title, other text and body. Group by month walks the created (day, date) index and rolls days up. Our file uses 16 KiB pages (`IndexSchema.pageSize`) and FTS5 leaves of 16,000 bytes (`IndexSchema.ftsLeafSize`); the reference keeps SQLite's default 4 KiB pages and FTS5's default 4,050-byte leaves.",
                "Ours builds in one batch: past 5,000 items the batch drops the secondary indexes that hold entries (here rating, fileSize, contentType, domain, the 3 dates and the custom number; the 19 still empty are kept, since each build scans every row) and builds them again, sorted, just before it commits (inside the same transaction); FTS5 meanwhile does not merge its segments, one per 50,000 notes, and leaves them to later writes' merging (merging them into one before the commit cost about a seventh of the build). The indexing rows include that index build and the per-word shortlists the writer keeps as FTS5 indexes each note's words; the reference's FTS5 keeps its default merging.",
                "The reference stores what its queries need: the notes row (unique id), FTS5 keeping title, body and keywords, an index on rating and one on (month, created), the month computed in Python per row. It keeps no keyword rows, custom-value rows or indexes on other attributes.",
                "Common and stop words (in a tenth to nearly all of the notes) make FTS5 score every note that holds them: BM25 has no top-k pruning in FTS5, so the reference's exact top-10 rows grow with the index. Ours answers a one-word query from the word's shortlist (the few dozen notes that can rank in its top 16 at any index size and average length, kept as the notes are indexed) and scores those with FTS5's BM25 arithmetic: the same notes, order and scores. Several words still make ours score every note that holds them all; it orders a words-only query by `+rank, rowid`, so that SQLite's sorter keeps only the best rows, where the reference writes FTS5's documented `ORDER BY rank`, which FTS5 answers by sorting every match.",
                "\"Top-10 of newest \(boundedMatches) matches\" rows use `SearchQuery(ranking: .mostRecent(matches: \(boundedMatches)))`, an opt-in bounded ranking (the default stays exact): BM25 scores only the \(boundedMatches) most recently indexed matches, so the results are the best among those, not over the whole index. The reference runs the same bounded SQL (`ORDER BY rowid DESC LIMIT \(boundedMatches)` inside, `ORDER BY rank LIMIT 10` outside). BM25 still reads each term's whole list of items once for its document count, which is what remains of the cost for stop words.",
                "Filtered query: one common word AND rating ≥ 4 AND created in the last two years.",
            ])
    }

    /// A latency row: our percentile `p` of `ours` beside the reference's, with an absolute goal
    /// in the note when there is one.
    static func latencyRow(_ name: String, _ ours: [Double], _ theirs: [Double], p: Double, absoluteGoal: Double?) -> BenchmarkRow {
        let value = percentile(ours, p)
        var note = "n=\(ours.count)"
        if let absoluteGoal { note += "; absolute goal ≤ \(absoluteGoal) ms: \(value <= absoluteGoal ? "met" : "NOT met")" }
        return BenchmarkRow(metric: name, ours: value, reference: percentile(theirs, p), unit: "ms", goal: nil,
                            higherIsBetter: false, spread: "p10–p90 \(String(format: "%.2f", percentile(ours, 0.1)))–\(String(format: "%.2f", percentile(ours, 0.9)))",
                            note: note)
    }

    static func referenceDescription(_ measured: Measurement) -> String {
        "raw SQLite \(measured.reference["sqlite"] as? String ?? "?") via Python's sqlite3 module: notes table (unique id) + FTS5 keeping title, body, keywords (porter stemming over unicode61, diacritics removed, as ours) + indexes on rating and (created month, created), the month stored at write time; same rows, same queries, same run"
    }

    // MARK: Growth

    /// One figure followed across the sizes of the growth section.
    private struct Curve {
        var name: String
        var unit: String
        var higherIsBetter = false
        /// The growth per tenfold it may reach, when there is a goal for it.
        var growthGoal: Double?
        /// An absolute goal for ours at one size (in `unit`).
        var absoluteGoal: (size: Int, value: Double)?
        var ours: (Measurement) -> Double
        /// Nil for a figure the reference shares (how many items a query reads).
        var reference: ((Measurement) -> Double)?
    }

    /// The index-growth section: the same build and queries as `index` (one build per side) at
    /// each of `sizes`, every figure beside the reference's at the same size, then how much each
    /// grows per tenfold, ours and the reference's.
    static func growth(sizes: [Int], workDirectory: URL) async throws -> SectionReport {
        let clock = ContinuousClock(), started = clock.now
        var measured: [Measurement] = []
        for size in sizes {
            let folder = workDirectory.appendingPathComponent("\(size)")
            try? FileManager.default.removeItem(at: folder)
            measured.append(try await measure(itemCount: size, buildRounds: 1, workDirectory: folder))
            try? FileManager.default.removeItem(at: folder)
        }
        func latency(_ name: String, _ key: String, _ p: Double, growthGoal: Double? = nil, absoluteGoal: (Int, Double)? = nil) -> Curve {
            Curve(name: name, unit: "ms", growthGoal: growthGoal, absoluteGoal: absoluteGoal,
                  ours: { percentile($0.ours[key] ?? [], p) }, reference: { percentile($0.theirs(key), p) })
        }
        func readCost(_ name: String, _ key: String) -> Curve {
            Curve(name: name, unit: "µs", ours: { percentile($0.microsecondsPerThousandRead(key, $0.ours[key] ?? []), 0.5) },
                  reference: { percentile($0.microsecondsPerThousandRead(key, $0.theirs(key)), 0.5) })
        }
        let curves = [
            Curve(name: "indexing rate", unit: "items/s", higherIsBetter: true,
                  ours: { $0.ourRates.first ?? 0 }, reference: { $0.referenceRates.first ?? 0 }),
            Curve(name: "size on disk", unit: "MiB", ours: { $0.ourBytes / 1_048_576 }, reference: { $0.referenceBytes / 1_048_576 }),
            latency("two-word top-10 p50", "ftsTwoWord", 0.5),
            latency("two-word top-10 p99", "ftsTwoWord", 0.99, growthGoal: 3, absoluteGoal: (10_000_000, 50)),
            latency("one-word (common) top-10 p50", "ftsCommon", 0.5),
            latency("one-word (common) top-10 p99", "ftsCommon", 0.99),
            latency("filtered top-10 p50", "filtered", 0.5, absoluteGoal: (1_000_000, 10)),
            latency("filtered top-10 p99", "filtered", 0.99),
            Curve(name: "two-word: items holding each word, summed, p50", unit: "items", ours: { percentile($0.postings["ftsTwoWord"] ?? [], 0.5) }),
            Curve(name: "two-word: items holding both (each scored), p50", unit: "items", ours: { percentile($0.twoWordMatches, 0.5) }),
            readCost("two-word: time per 1,000 items read, p50", "ftsTwoWord"),
            Curve(name: "filtered: items holding the word, p50", unit: "items", ours: { percentile($0.postings["filtered"] ?? [], 0.5) }),
            readCost("filtered: time per 1,000 items read, p50", "filtered"),
            latency("count (rating ≥ 4) p50", "count", 0.5),
            latency("group by month p50", "groupByMonth", 0.5),
        ]
        var rows: [BenchmarkRow] = []
        for curve in curves {
            for measurement in measured {
                var note: String?
                if let goal = curve.absoluteGoal, goal.size == measurement.itemCount {
                    let met = curve.ours(measurement) <= goal.value
                    note = "absolute goal ≤ \(goal.value.formatted()) \(curve.unit): \(met ? "met" : "missed")"
                }
                rows.append(BenchmarkRow(metric: "\(curve.name), \(sizeLabel(measurement.itemCount))", ours: curve.ours(measurement),
                                         reference: curve.reference?(measurement), unit: curve.unit, goal: nil,
                                         higherIsBetter: curve.higherIsBetter, note: note))
            }
            for (smaller, larger) in zip(measured, measured.dropFirst()) {
                let ours = curve.ours(larger) / curve.ours(smaller)
                let theirs = curve.reference.map { reference in reference(larger) / reference(smaller) }
                rows.append(BenchmarkRow(metric: "\(curve.name), growth \(sizeLabel(smaller.itemCount)) → \(sizeLabel(larger.itemCount))",
                                         ours: ours, reference: nil, unit: "×", goal: curve.growthGoal, higherIsBetter: false,
                                         note: theirs.map { String(format: "reference ×%.2f", $0) }))
            }
        }
        let seconds = (clock.now - started).components.seconds
        return SectionReport(
            name: "index-growth",
            title: "SearchIndex from \(sizeLabel(sizes.first ?? 0)) to \(sizeLabel(sizes.last ?? 0)) generated notes",
            reference: measured.first.map(referenceDescription) ?? "raw SQLite",
            rows: rows,
            notes: [
                "The index section's notes, queries and reference, one build per side at each size (the index section's medians of three builds are at 1M). Growth rows divide a figure by the same figure at a tenth of the size; the reference's growth is in the note. The goals: two-word top-10 p99 grows at most 3× per tenfold and stays ≤ 50 ms at 10M; filtered top-10 p50 ≤ 10 ms at 1M.",
                "Filtered query: one common word AND rating ≥ 4 AND created in the last two years: about 27% of the notes pass the filter (rating 4 or 5: 2 in 5; created since 2022-01-01: 2 of the 3 years the notes span).",
                "The section took \(seconds / 60) min \(seconds % 60) s at these sizes (10M is left out of `--quick`).",
            ] + whereTheTimeGoes(measured))
    }

    /// What the full-text rows cost, from the items each query reads: the smallest and largest
    /// sizes side by side, and what a goal would need.
    private static func whereTheTimeGoes(_ measured: [Measurement]) -> [String] {
        guard let small = measured.first, let large = measured.last, large.itemCount > small.itemCount else { return [] }
        func median(_ values: [Double]) -> Double { percentile(values, 0.5) }
        func cost(_ measurement: Measurement, _ key: String, ours: Bool) -> Double {
            median(measurement.microsecondsPerThousandRead(key, ours ? measurement.ours[key] ?? [] : measurement.theirs(key)))
        }
        let (smallLabel, largeLabel) = (sizeLabel(small.itemCount), sizeLabel(large.itemCount))
        let read = { (measurement: Measurement, key: String) in median(measurement.postings[key] ?? []) }
        var notes = [String(
            format: "Where the two-word time goes: FTS5 has no top-k pruning, so a two-word top 10 walks the postings of both words "
                + "(the items holding each, skipping ahead only where its doclist index lets it) and scores every item holding both. "
                + "The median query's words are held by %.0f items at %@ and %.0f at %@ "
                + "(%.0f× for %.0f× the notes) and it scores %.0f at %@; each 1,000 of those items cost %.0f µs at %@ and %.0f µs at %@ "
                + "(the reference: %.0f and %.0f). So the time grows as the postings do, tenfold per tenfold, on both sides, "
                + "and more where each posting costs more (the time-per-1,000 rows). One-word queries escape it through their shortlists (the one-word rows); "
                + "a pair of words has none, so a p99 growth of 3× per tenfold needs an index of word pairs or of postings in score "
                + "order, which neither FTS5 nor this index keeps.",
            read(small, "ftsTwoWord"), smallLabel, read(large, "ftsTwoWord"), largeLabel,
            read(large, "ftsTwoWord") / max(read(small, "ftsTwoWord"), 1), Double(large.itemCount) / Double(small.itemCount),
            median(large.twoWordMatches), largeLabel,
            cost(small, "ftsTwoWord", ours: true), smallLabel, cost(large, "ftsTwoWord", ours: true), largeLabel,
            cost(small, "ftsTwoWord", ours: false), cost(large, "ftsTwoWord", ours: false))]
        if let million = measured.first(where: { $0.itemCount == 1_000_000 }) {
            let perThousand = cost(million, "filtered", ours: true)
            notes.append(String(
                format: "Where the filtered time goes: the query reads every item holding its word (median %.0f at 1M), checks "
                    + "each against the rating and date and scores the 27%% that pass, at %.0f µs per 1,000 items read "
                    + "(the reference: %.0f). 10 ms at 1M allows about %.0f items read at that cost. The word's shortlist "
                    + "holds its top 16, of which about 4 pass the filter, so it cannot answer a filtered top 10 by itself; "
                    + "that needs a word's items in score order, read until 10 pass.",
                read(million, "filtered"), perThousand, cost(million, "filtered", ours: false), 10 / perThousand * 1_000_000))
        }
        return notes
    }

    /// 10k, 100k, 1M, 10M.
    static func sizeLabel(_ count: Int) -> String {
        count >= 1_000_000 ? "\(count / 1_000_000)M" : count >= 1_000 ? "\(count / 1_000)k" : "\(count)"
    }
}
