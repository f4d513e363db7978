import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// The SearchTool section: tokens of the tool definition per guide and format (with the default
/// model's tokenizer), and tool execution time per query kind over a large generated index.
enum SearchToolBenchmark {
    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        var rows = try await definitionTokens(environment)
        rows += try await executionTimes(environment)
        return SectionReport(
            name: "searchtool",
            title: "SearchTool: tool definition size per guide, execution time per query kind",
            reference: "token goals from issue 6 (focused+compact ≤ 300, complete ≤ 1,500); execution beside the bare SearchableIndex call doing the same work",
            rows: rows,
            notes: [
                "Definition = the {\"type\": \"function\", ...} line the session renders into <tools>, counted with SmolLM2-135M's tokenizer (vocabulary-only load).",
                "Sources: one index with fetchAttributes title, stateOrProvince, keywords, rating, duration, completionDate (the trail sample's shape).",
                "Execution: the whole tool call (parse, SQL, format) against the same aggregate/search run directly on the index.",
            ])
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

    static func executionTimes(_ environment: BenchmarkEnvironment) async throws -> [BenchmarkRow] {
        let count = environment.quick ? 20_000 : 100_000
        let folder = environment.workDirectory.appendingPathComponent("searchtool-exec")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes-\(count).sqlite")
        let utc = TimeZone(identifier: "UTC") ?? .current
        let index = try SearchableIndex(url: file, timeZone: utc)
        let existing = try await index.count()
        if existing != count {
            try await index.deleteAllSearchableItems()
            try await index.beginBatch()
            var chunk: [SearchableItem] = []
            for note in IndexBenchmark.notes(count: count) {
                var set = SearchableItemAttributeSet(contentType: "public.text")
                set.title = note.title
                set.textContent = note.body
                set.keywords = note.keywords
                set.contentCreationDate = Date(timeIntervalSince1970: note.created)
                set.rating = note.rating
                set.fileSize = note.size
                chunk.append(SearchableItem(uniqueIdentifier: note.id, attributeSet: set))
                if chunk.count == 1_000 {
                    try await index.indexSearchableItems(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try await index.indexSearchableItems(chunk)
            try await index.endBatch(clientState: Data("searchtool-bench".utf8))
            try await index.checkpoint()
        }
        let fetch: [SearchableItemAttribute] = [.title, .keywords, .rating, .fileSize, .contentCreationDate]
        let tool = SearchTool(configuration: .init(sources: [.index(IndexSource(index: index, fetchAttributes: fetch))]))
        let word = IndexBenchmark.vocabulary[30]
        let kinds: [(String, JSONObject, () async throws -> Void)] = [
            ("terms top-10", ["terms": [.string(word)]], { _ = try await index.search(SearchQuery(.fullText(word), limit: 10, fetchAttributes: fetch)) }),
            ("terms + filter + dates top-10", ["terms": [.string(word)], "filters": [["attribute": "rating", "op": ">=", "value": 4]],
                                               "dates": ["attribute": "contentCreationDate", "from": "2022-01-01", "to": "2023-12-31"]],
             { _ = try await index.search(SearchQuery(.and([.fullText(word), .compare(.rating, .greaterOrEqual, .number(4))]), limit: 10, fetchAttributes: fetch)) }),
            ("count stage (rating ≥ 4)", ["filters": [["attribute": "rating", "op": ">=", "value": 4]], "stages": [["stage": "count"]]],
             { _ = try await index.count(where: .compare(.rating, .greaterOrEqual, .number(4))) }),
            ("groupBy keywords", ["stages": [["stage": "groupBy", "attribute": "keywords"]]], { _ = try await index.aggregate(.groupBy(.keywords, limit: 50)) }),
            ("groupBy month + avg rating", ["stages": [["stage": "groupBy", "attribute": "contentCreationDate", "dateComponent": "month"],
                                                       ["stage": "statistic", "function": "avg", "attribute": "rating"]]],
             { _ = try await index.aggregate(.groupByDate(.contentCreationDate, unit: .month, statistic: GroupStatistic(.average, of: .rating))) }),
            ("statistic avg fileSize", ["stages": [["stage": "statistic", "function": "avg", "attribute": "fileSize"]]],
             { _ = try await index.aggregate(.statistic(.average, .fileSize)) }),
            ("score by fileSize top-10", ["terms": [.string(word)], "stages": [["stage": "score", "attribute": "fileSize"]]],
             { _ = try await index.search(SearchQuery(.fullText(word), sort: [.attribute(.fileSize, ascending: false)], limit: 10, fetchAttributes: fetch)) }),
        ]
        let runs = environment.quick ? 3 : 7
        var rows: [BenchmarkRow] = []
        for (name, query, direct) in kinds {
            let arguments = try SearchTool.Arguments(.object(["query": .object(query)]))
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<runs {
                ours.append(try await IndexBenchmark.milliseconds { _ = try await tool.call(arguments: arguments) })
                theirs.append(try await IndexBenchmark.milliseconds(direct))
            }
            let sample = Sample(ours)
            rows.append(BenchmarkRow(metric: "tool call: \(name)", ours: sample.median, reference: Sample(theirs).median, unit: "ms",
                                     goal: nil, higherIsBetter: false, spread: sample.spread, note: "\(count) items, median of \(runs)"))
        }
        tool.finish()
        return rows
    }
}
