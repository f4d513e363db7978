import Foundation
import SearchIndex

/// The passages section, the index section's long-document half: N generated Markdown
/// documents of about 2,000 words (chapters, sections, paragraphs), indexed with their passages
/// and searched passage by passage, beside raw SQLite FTS5 over the same passages (Python's
/// sqlite3 module, Benchmarks/reference/passage_reference.py), and the cost of snippets on a
/// page of 10 results.
enum PassageBenchmark {
    struct Document {
        var id: String, title: String, text: String
    }

    /// Markdown documents of 1,800–2,200 words: a title, 4–6 chapters of 2–4 sections, each of
    /// paragraphs of 40–120 words (Zipf-distributed words from the index section's vocabulary).
    static func documents(count: Int) -> [Document] {
        var generator = IndexBenchmark.Generator(state: 2_026)
        func words(_ n: Int) -> String { (0..<n).map { _ in IndexBenchmark.word(&generator) }.joined(separator: " ") }
        return (0..<count).map { number in
            let title = words(4).capitalized
            var text = "# \(title)\n\n"
            var written = 0
            let target = 1_800 + generator.below(401)
            var chapter = 0
            while written < target {
                chapter += 1
                text += "## \(chapter). \(words(3).capitalized)\n\n"
                for _ in 0..<(2 + generator.below(3)) where written < target {
                    text += "### \(words(2).capitalized)\n\n"
                    for _ in 0..<(2 + generator.below(3)) where written < target {
                        let length = 40 + generator.below(81)
                        text += words(length).capitalized + ".\n\n"
                        written += length
                    }
                }
            }
            return Document(id: "doc-\(number)", title: title, text: text)
        }
    }

    static func item(_ document: Document) -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: "net.daringfireball.markdown")
        set.title = document.title
        set.textContent = document.text
        return SearchableItem(uniqueIdentifier: document.id, domainIdentifier: "documents", attributeSet: set)
    }

    static func runReference(passagesFile: URL, queriesFile: URL, workDirectory: URL) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("reference/passage_reference.py")
        process.arguments = ["python3", script.path, passagesFile.path, queriesFile.path, workDirectory.appendingPathComponent("reference.sqlite").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let reference = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw IndexBenchmark.Failure(description: "the raw-SQLite passage reference failed (status \(process.terminationStatus)); run it by hand: python3 \(script.path)")
        }
        return reference
    }

    static func run(documentCount: Int, workDirectory: URL) async throws -> SectionReport {
        let manager = FileManager.default
        try manager.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let documents = documents(count: documentCount)
        let wordCount = documents.reduce(0) { $0 + $1.text.split(separator: " ").count }

        // The reference indexes exactly the passages Lantern makes.
        var tsv = ""
        var passageCount = 0
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        }
        for document in documents {
            for passage in Passage.split(document.text, contentType: "net.daringfireball.markdown") {
                tsv += [document.id, escaped(document.title), "\(passage.location.lines.lowerBound)", "\(passage.location.lines.upperBound)",
                        escaped(passage.text)].joined(separator: "\t") + "\n"
                passageCount += 1
            }
        }
        let passagesFile = workDirectory.appendingPathComponent("passages.tsv")
        try Data(tsv.utf8).write(to: passagesFile)
        var generator = IndexBenchmark.Generator(state: 77)
        let twoWord = (0..<200).map { _ in [IndexBenchmark.vocabulary[100 + generator.below(900)], IndexBenchmark.vocabulary[100 + generator.below(900)]] }
        let queriesFile = workDirectory.appendingPathComponent("queries.json")
        try JSONSerialization.data(withJSONObject: ["twoWord": twoWord]).write(to: queriesFile)

        let indexFile = workDirectory.appendingPathComponent("lantern-passages.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? manager.removeItem(atPath: indexFile.path + suffix) }
        let index = try SearchableIndex(url: indexFile, timeZone: TimeZone(identifier: "UTC") ?? .current)
        let cpuBefore = IndexBenchmark.processCPUSeconds()
        let indexingMs = try await IndexBenchmark.milliseconds {
            try await index.beginBatch()
            for start in stride(from: 0, to: documents.count, by: 100) {
                try await index.indexSearchableItems(documents[start..<min(documents.count, start + 100)].map(item))
            }
            try await index.endBatch(clientState: Data("bench".utf8))
        }
        let ourRate = Double(documentCount) / (indexingMs / 1_000)
        let ourCPURate = Double(documentCount) / (IndexBenchmark.processCPUSeconds() - cpuBefore)
        _ = try await index.checkpoint()
        let ourBytes = ["", "-wal"].compactMap { (try? manager.attributesOfItem(atPath: indexFile.path + $0))?[.size] as? NSNumber }
            .reduce(0) { $0 + $1.intValue }

        var passageTopTen: [Double] = []
        var found = 0
        for words in twoWord {
            passageTopTen.append(try await IndexBenchmark.milliseconds {
                found += try await index.passages(matching: words.joined(separator: " "), limit: 10).count
            })
        }
        // Snippets: the same page of 10 results with and without them, alternating per query.
        var plain: [Double] = [], snippeted: [Double] = []
        for words in twoWord {
            let predicate = QueryPredicate.fullText(words.joined(separator: " "))
            plain.append(try await IndexBenchmark.milliseconds { _ = try await index.search(SearchQuery(predicate, limit: 10)) })
            snippeted.append(try await IndexBenchmark.milliseconds { _ = try await index.search(SearchQuery(predicate, limit: 10, snippetLength: 200)) })
        }
        let snippetCost = zip(snippeted, plain).map { $0 - $1 }

        let reference = try runReference(passagesFile: passagesFile, queriesFile: queriesFile, workDirectory: workDirectory)
        let referenceTopTen = reference["passageTopTen"] as? [Double] ?? []
        func latency(_ name: String, _ ours: [Double], _ theirs: [Double]?, p: Double, absoluteGoal: Double) -> BenchmarkRow {
            let value = IndexBenchmark.percentile(ours, p)
            return BenchmarkRow(metric: name, ours: value, reference: theirs.map { IndexBenchmark.percentile($0, p) }, unit: "ms", goal: nil,
                                higherIsBetter: false,
                                spread: "p10–p90 \(String(format: "%.2f", IndexBenchmark.percentile(ours, 0.1)))–\(String(format: "%.2f", IndexBenchmark.percentile(ours, 0.9)))",
                                note: "n=\(ours.count); absolute goal ≤ \(absoluteGoal) ms: \(value <= absoluteGoal ? "met" : "NOT met")")
        }
        return SectionReport(
            name: "passages",
            title: "Passages at \(documentCount) generated long documents (\(wordCount / 1_000)k words, \(passageCount) passages)",
            reference: "raw SQLite \(reference["sqlite"] as? String ?? "?") via Python's sqlite3 module: documents table (unique id, title), passages table (document, lines) and FTS5 keeping each passage's text (porter over unicode61, diacritics removed, as ours), over exactly the passages Lantern makes (`Passage.split`); same run",
            rows: [
                BenchmarkRow(metric: "indexing rate", ours: ourRate, reference: IndexBenchmark.number(reference, "documentsPerSecond"), unit: "documents/s",
                             goal: 0.9, higherIsBetter: true,
                             note: "one batch, chunks of 100 documents; wall clock. Ours indexes every word twice: in the item's full-text row (item search ranks whole documents) and in its passage's"),
                BenchmarkRow(metric: "indexing rate per CPU second", ours: ourCPURate, reference: IndexBenchmark.number(reference, "documentsPerCPUSecond"),
                             unit: "documents/s", goal: 0.9, higherIsBetter: true, note: "the same builds in process CPU time"),
                BenchmarkRow(metric: "size on disk", ours: Double(ourBytes) / 1_048_576, reference: IndexBenchmark.number(reference, "bytes") / 1_048_576,
                             unit: "MiB", goal: nil, higherIsBetter: false,
                             note: "after a WAL checkpoint; ours keeps the documents' text once, compressed, and contentless FTS5 tables; the reference's FTS5 keeps the passages' text"),
                latency("passage two-word top-10 p50", passageTopTen, referenceTopTen, p: 0.5, absoluteGoal: 5),
                latency("passage two-word top-10 p99", passageTopTen, referenceTopTen, p: 0.99, absoluteGoal: 50),
                latency("snippet cost per page of 10 results p50", snippetCost, nil, p: 0.5, absoluteGoal: 1),
                latency("snippet cost per page of 10 results p99", snippetCost, nil, p: 0.99, absoluteGoal: 10),
            ],
            notes: [
                "Documents: Markdown with a title, chapters and sections, paragraphs of 40–120 words; \(passageCount) passages (\(String(format: "%.1f", Double(passageCount) / Double(max(1, documentCount)))) per document) of at most \(Passage.maximumLength) bytes.",
                "Passage top-10: `SearchableIndex.passages(matching:limit: 10)`, every word required, BM25 over passages, with each passage's text cut out of its document's stored text; the reference runs `MATCH '\"a\" \"b\"' ORDER BY rank LIMIT 10` joined to its passages table. \(found) passages returned in all.",
                "Snippet cost: the same two-word search, top 10 documents, with `snippetLength: 200` minus without, per query (alternating): finding each result's best passage (an FTS5 lookup bounded to the document's passage rowids), tokenizing it and cutting the window.",
            ])
    }
}
