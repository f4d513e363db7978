import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// The SearchTool section: tokens of the tool definition per guide and format (with the default
/// model's tokenizer), and tool execution time per query kind over the 1,000,000-note index
/// (100,000 with `--quick`), beside the bare index calls doing the same work.
enum SearchToolBenchmark {
    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        var rows = try await definitionTokens(environment)
        let loadBefore = loadAverage
        rows += try await executionTimes(environment)
        let loadAfter = loadAverage
        return SectionReport(
            name: "searchtool",
            title: "SearchTool: tool definition size per guide, execution time per query kind",
            reference: "token goals from issue 6 (focused+compact ≤ 300, complete ≤ 1,500); execution beside the bare SearchableIndex call doing the same work",
            rows: rows,
            notes: [
                "Definition = the {\"type\": \"function\", ...} line the session renders into <tools>, counted with SmolLM2-135M's tokenizer (vocabulary-only load).",
                "Sources: one index with fetchAttributes title, stateOrProvince, keywords, rating, duration, completionDate (the trail sample's shape).",
                "Execution: the whole tool call (parse, SQL, format, reply stream) beside the bare SearchableIndex calls that produce the figures its output shows: the matched count (every tool output states it) with the search (`searchCountingFoundItems`, which the tool calls too), or the count beside the aggregate, stage or fetch. Medians over the runs; spread is ours min–max, the reference's min–max is in the note. Search kinds use two words of ranks 100–1,000 (each in a few percent of notes), different each run, the same on both sides; the sides take turns going first, since the second finds the run's pages in SQLite's cache.",
                "The score stage's tool call also runs the relevance top-10 search before sorting by the attribute; its reference runs only the count and the sorted search. The custom stage (title_words) scores the top-10 in Swift on both sides. Hydration: an in-process delegate that answers at once, through the tool's timeout machinery.",
                "Load average (1/5/15 min) before the timings: \(loadBefore); after: \(loadAfter). The machine has 2 cores shared with other work, so the figures are noisy.",
            ])
    }

    /// Fails the section when a fetch did not return the item's text (a timing of an error
    /// message would look like a fast fetch).
    static func expectText(_ output: String, _ id: String, hydrated: Bool = false) throws {
        guard output.hasPrefix("id: \(id)"), output.contains("\ntext:\n"), !hydrated || output.contains("kept by the app") else {
            throw BenchmarkFailure("fetch_item \(id) returned no item text: \(output.prefix(200))")
        }
    }

    /// /proc/loadavg's first three fields, to state how loaded the shared machine was.
    static var loadAverage: String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The tool's line of the `<tools>` block, taken from the session's own system prompt (a
    /// vocabulary-only model is enough to build it).
    static func definitionLine(_ tool: SearchTool, model: LocalModel) throws -> String {
        let prompt = LanguageModelSession(model: model, tools: [tool]).systemPrompt
        guard let line = prompt.split(separator: "\n").first(where: { $0.contains("\"name\": \"\(tool.name)\"") }) else {
            throw BenchmarkFailure("the system prompt has no definition line for \(tool.name); check that the session renders tools")
        }
        return String(line)
    }

    static func definitionTokens(_ environment: BenchmarkEnvironment) async throws -> [BenchmarkRow] {
        let vocabulary = try LocalModel.vocabularyOnly(contentsOf: environment.modelURL)
        let folder = environment.workDirectory.appendingPathComponent("searchtool-definitions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let index = try SearchableIndex(url: folder.appendingPathComponent("empty.sqlite"))
        let source = SearchSource.index(IndexSource(index: index, fetchAttributes: [.title, .stateOrProvince, .keywords, .rating, .duration, .completionDate]))
        let guides: [(String, Guide, Double?)] = [
            ("complete", .complete, 1_500),
            ("complete + compact", Guide(level: .complete, format: .compact), nil),
            ("focused(.items)", .focused(), nil),
            ("focused(.items) + compact", Guide(level: .focused(.items), format: .compact), 300),
            ("dynamic small profile + compact", Guide(level: .dynamic(GuidanceProfile(numericMatch: false, attributes: [.title, .completionDate], stages: false)), format: .compact), nil),
            ("dynamic trail profile", .dynamic(GuidanceProfile(attributes: [.stateOrProvince, .rating, .completionDate])), nil),
        ]
        var rows: [BenchmarkRow] = []
        for (name, guide, goal) in guides {
            let tool = SearchTool(configuration: .init(sources: [source], guide: guide))
            let search = try vocabulary.tokenizer.countTokens(in: definitionLine(tool, model: vocabulary), parseSpecial: false)
            rows.append(BenchmarkRow(metric: "definition tokens: \(name)", ours: Double(search), reference: nil, unit: "tokens", goal: goal,
                                     higherIsBetter: false, note: tool.includesSchemaInInstructions
                                        ? "JSON Schema in parameters; fetch_item adds its own line"
                                        : "schema sketched in the description; fetch_item adds its own line"))
        }
        return rows
    }

    /// The notes index the timings run on: the index section's file when it holds the same
    /// notes (same generator, same count, its batch committed), so a full run builds one
    /// million-item index, not two; otherwise one built here and kept by item count.
    static func noteIndex(count: Int, _ environment: BenchmarkEnvironment) async throws -> (SearchableIndex, String) {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let first = IndexBenchmark.notes(count: 2)
        func holdsTheNotes(_ index: SearchableIndex, clientState: String) async throws -> Bool {
            guard try await index.count() == count, try await index.fetchLastClientState() == Data(clientState.utf8) else { return false }
            let stored = try await index.fetchItems(identifiers: first.map(\.id))
            return stored.map(\.attributeSet.title) == first.map(\.title)
        }
        let shared = environment.workDirectory.appendingPathComponent("index/lantern-bench.sqlite")
        if FileManager.default.fileExists(atPath: shared.path) {
            let index = try SearchableIndex(url: shared, timeZone: utc)
            if try await holdsTheNotes(index, clientState: "bench") { return (index, "the index section's file") }
        }
        let folder = environment.workDirectory.appendingPathComponent("searchtool-exec")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let index = try SearchableIndex(url: folder.appendingPathComponent("notes-\(count).sqlite"), timeZone: utc)
        if try await holdsTheNotes(index, clientState: "searchtool-bench") { return (index, "kept from an earlier run of this section") }
        FileHandle.standardError.write(Data("bench: building a \(count)-item notes index for the searchtool section…\n".utf8))
        try await index.deleteAllSearchableItems()
        try await IndexBenchmark.indexNotes(IndexBenchmark.notes(count: count), into: index, effortKey: nil, clientState: "searchtool-bench")
        try await index.checkpoint()
        return (index, "built by this section")
    }

    /// One query kind: per run, the tool's work and the bare index calls that produce the same
    /// figures, and the absolute goal issue 5/6 sets for it (ms, median), if any.
    struct QueryKind {
        var name: String
        var goal: (milliseconds: Double, source: String)?
        var work: (_ run: Int) throws -> (ours: () async throws -> Void, reference: () async throws -> Void)
    }

    static func executionTimes(_ environment: BenchmarkEnvironment) async throws -> [BenchmarkRow] {
        let count = environment.quick ? 100_000 : 1_000_000
        let (index, origin) = try await noteIndex(count: count, environment)
        let fetch: [SearchableItemAttribute] = [.title, .keywords, .rating, .fileSize, .contentCreationDate]
        let stage = TitleWordsStage()
        let tool = SearchTool(configuration: .init(sources: [.index(IndexSource(index: index, fetchAttributes: fetch))], customStages: [stage]))
        let store = NoteStore()
        let hydratingTool = SearchTool(configuration: .init(sources: [.index(IndexSource(index: index, delegate: store, fetchAttributes: fetch))]))
        let vocabulary = IndexBenchmark.vocabulary
        // Two words of ranks 100–1,000 per run (the index section's two-word queries: each in
        // a few percent of notes), different on every run and the same on both sides.
        func words(_ run: Int) -> [String] { [vocabulary[100 + (run * 37) % 900], vocabulary[100 + (run * 91 + 450) % 900]] }
        func call(_ query: JSONObject) throws -> () async throws -> Void {
            let arguments = try SearchTool.Arguments(.object(["query": .object(query)]))
            return { _ = try await tool.call(arguments: arguments) }
        }
        func terms(_ run: Int) -> JSONValue { .array(words(run).map(JSONValue.string)) }
        func text(_ run: Int) -> QueryPredicate { .fullText(words(run).joined(separator: " ")) }
        let ratingFilter: JSONValue = [["attribute": "rating", "op": ">=", "value": 4]]
        let highRating = QueryPredicate.compare(.rating, .greaterOrEqual, .number(4))
        let utc = TimeZone(identifier: "UTC") ?? .current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let from = calendar.date(from: DateComponents(year: 2022, month: 1, day: 1)) ?? Date()
        let to = (calendar.date(from: DateComponents(year: 2024, month: 1, day: 1)) ?? Date()).addingTimeInterval(-0.001)
        let aggregateGoal = (200.0, "issue 5: count, group-by and group-by-month ≤ 200 ms over the million")

        let kinds: [QueryKind] = [
            QueryKind(name: "terms top-10", goal: (5, "issue 5: full-text top-10 p50 ≤ 5 ms")) { run in
                (try call(["terms": terms(run)]), {
                    _ = try await index.searchCountingFoundItems(SearchQuery(text(run), limit: 10, fetchAttributes: fetch))
                })
            },
            QueryKind(name: "terms + filter + dates top-10", goal: nil) { run in
                let predicate = QueryPredicate.and([text(run), highRating, .inRange(.contentCreationDate, lower: .date(from), upper: .date(to))])
                return (try call(["terms": terms(run), "filters": ratingFilter,
                                  "dates": ["attribute": "contentCreationDate", "from": "2022-01-01", "to": "2023-12-31"]]), {
                    _ = try await index.searchCountingFoundItems(SearchQuery(predicate, limit: 10, fetchAttributes: fetch))
                })
            },
            QueryKind(name: "count stage (rating ≥ 4)", goal: aggregateGoal) { _ in
                (try call(["filters": ratingFilter, "stages": [["stage": "count"]]]), { _ = try await index.count(where: highRating) })
            },
            QueryKind(name: "groupBy keywords", goal: aggregateGoal) { _ in
                (try call(["stages": [["stage": "groupBy", "attribute": "keywords"]]]), {
                    _ = try await index.count()
                    _ = try await index.aggregate(.groupBy(.keywords, limit: 50))
                })
            },
            QueryKind(name: "groupBy month + avg rating", goal: aggregateGoal) { _ in
                (try call(["stages": [["stage": "groupBy", "attribute": "contentCreationDate", "dateComponent": "month"],
                                      ["stage": "statistic", "function": "avg", "attribute": "rating"]]]), {
                    _ = try await index.count()
                    _ = try await index.aggregate(.groupByDate(.contentCreationDate, unit: .month, statistic: GroupStatistic(.average, of: .rating)))
                })
            },
            QueryKind(name: "statistic avg fileSize", goal: aggregateGoal) { _ in
                (try call(["stages": [["stage": "statistic", "function": "avg", "attribute": "fileSize"]]]), {
                    _ = try await index.count()
                    _ = try await index.aggregate(.statistic(.average, .fileSize))
                })
            },
            QueryKind(name: "score by fileSize top-10", goal: nil) { run in
                (try call(["terms": terms(run), "stages": [["stage": "score", "attribute": "fileSize"]]]), {
                    _ = try await index.count(where: text(run))
                    _ = try await index.search(SearchQuery(.and([text(run), .exists(.fileSize)]), sort: [.attribute(.fileSize, ascending: false)],
                                                           limit: 10, fetchAttributes: fetch))
                })
            },
            QueryKind(name: "custom stage title_words top-10", goal: nil) { run in
                let arguments: GeneratedContent = ["words": terms(run)]
                return (try call(["terms": terms(run), "stages": [["stage": "title_words", "arguments": arguments]]]), {
                    let hits = try await index.searchCountingFoundItems(SearchQuery(text(run), limit: 10, fetchAttributes: fetch)).hits
                    _ = try await stage.execute(input: .items(hits.map(\.item)), arguments: arguments)
                })
            },
            QueryKind(name: "fetch_item (index text)", goal: nil) { run in
                let id = "note-\((run * 7_919) % count)"
                let arguments = try FetchItemTool.Arguments(["id": .string(id)])
                return ({ try expectText(try await tool.fetchTool.call(arguments: arguments), id) },
                        { _ = try await index.fetchItems(identifiers: [id]) })
            },
            QueryKind(name: "fetch_item with delegate hydration", goal: nil) { run in
                let id = "note-\((run * 7_919 + 13) % count)"
                let arguments = try FetchItemTool.Arguments(["id": .string(id)])
                return ({ try expectText(try await hydratingTool.fetchTool.call(arguments: arguments), id, hydrated: true) }, {
                    _ = try await index.fetchItems(identifiers: [id])
                    _ = await store.searchableItems(forIdentifiers: [id])
                })
            },
        ]
        let runs = environment.quick ? 5 : 15
        // Slow kinds stop after this much of their own time (at least 5 runs), so a loaded
        // machine does not stretch the section past what its spread can tell.
        let budget = environment.quick ? 20.0 : 90.0
        var rows: [BenchmarkRow] = []
        for kind in kinds {
            // One unmeasured run each side first: the first touch of a 1.5 GB file reads pages
            // from disk, which later calls (and the reference) would not pay.
            let warm = try kind.work(runs)
            try await warm.ours()
            try await warm.reference()
            var ours: [Double] = []
            var theirs: [Double] = []
            for run in 0..<runs {
                // Both sides read the same pages through one connection, so whichever runs second
                // finds the run's pages in SQLite's cache: the sides take turns going first.
                let work = try kind.work(run)
                if run.isMultiple(of: 2) {
                    ours.append(try await IndexBenchmark.milliseconds(work.ours))
                    theirs.append(try await IndexBenchmark.milliseconds(work.reference))
                } else {
                    theirs.append(try await IndexBenchmark.milliseconds(work.reference))
                    ours.append(try await IndexBenchmark.milliseconds(work.ours))
                }
                if run >= 4, (ours + theirs).reduce(0, +) > budget * 1_000 { break }
            }
            let sample = Sample(ours), reference = Sample(theirs)
            var note = "\(count) items; reference \(String(format: "%.1f–%.1f", reference.percentile(0), reference.percentile(100)))"
            if let goal = kind.goal {
                note += "; goal ≤ \(ResultsFile.format(goal.milliseconds)) ms median (\(goal.source)): "
                    + (sample.median <= goal.milliseconds ? "met" : "**MISSED**")
            }
            rows.append(BenchmarkRow(metric: "tool call: \(kind.name) @ \(count) items", ours: sample.median, reference: reference.median, unit: "ms",
                                     goal: nil, higherIsBetter: false, spread: sample.spread, note: note))
        }
        tool.finish()
        hydratingTool.finish()
        rows.append(BenchmarkRow(metric: "index used for the tool-call rows", ours: Double(count), reference: nil, unit: "items", goal: nil,
                                 higherIsBetter: false, note: origin))
        return rows
    }
}

/// The benchmark's custom stage: scores the searched items by how many of the given words
/// their title holds (work done in Swift on the stage's input, as an app's stage would).
struct TitleWordsStage: CustomStage {
    let name = "title_words"
    let description = "Scores results by how many of the words their title holds."
    let inputTypes: [SearchPipelineDataType] = [.items]
    let outputType = SearchPipelineDataType.scoredItems
    var argumentSchema: GenerationSchema { .object([.property("words", .array(of: .string(maxLength: 32), minItems: 1, maxItems: 3))]) }

    func execute(input: SearchPipelineData, arguments: GeneratedContent) async throws -> SearchPipelineData {
        let words = (arguments["words"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() }
        return .scoredItems(input.items.map { item in
            let title = item.attributeSet.title?.lowercased() ?? ""
            return ScoredSearchableItem(item: item, score: Double(words.filter(title.contains).count))
        }.sorted { $0.score > $1.score })
    }
}

/// An app store that answers hydration at once with an attribute the index does not hold.
final class NoteStore: SearchableIndexDelegate {
    func reindexAllSearchableItems(in index: SearchableIndex) async throws {}
    func reindexSearchableItems(withIdentifiers identifiers: [String], in index: SearchableIndex) async throws {}
    func searchableItems(forIdentifiers identifiers: [String]) async -> [SearchableItem] {
        identifiers.map { id in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.contentDescription = "kept by the app for \(id)"
            return SearchableItem(uniqueIdentifier: id, domainIdentifier: "notes", attributeSet: set)
        }
    }
}
