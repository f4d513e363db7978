import Evaluations
import Foundation
import LocalModel
import SearchIndex
import SearchTool
import TokenBudget

/// Section "guidance" (issue 26 §6): what the search guidance costs in the prompt (the
/// instructions, each tool's description and schema, as `ask budget` counts them) per guide and
/// format, on the sample index and on the same items carrying 20 and 50 attributes (the sample's
/// plus custom keys of every kind), with each installed chat model's tokenizer; and what one
/// more attribute costs. Only vocabularies are loaded, so the section takes seconds.
enum GuidanceBenchmark {
    /// The issue's goals on the sample index with the default tokenizer.
    static let goals: [String: Double] = ["complete / structured": 1_500, "focused / compact": 400]
    /// The figures at 6456139, before this section's trims (SmolLM2, sample index).
    static let before: [String: Int] = ["complete / structured": 1_978, "focused / structured": 973, "focused / compact": 699]
    static let attributeCounts = [20, 50]
    /// Search output per call and per row at 7ea8f5c, before issue 48's cuts (SmolLM2, the
    /// `OutputCost` questions).
    static let outputBefore: [String: (call: Double, row: Double)] = ["structured": (429, 120.2), "compact": (343, 86.9)]

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let folder = environment.workDirectory.appendingPathComponent("guidance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try SearchableIndex(url: folder.appendingPathComponent("sample.sqlite"))
        let items = try CorpusReader().items(contentsOf: SampleData.trailsCorpus)
        try await sample.indexSearchableItems(items)
        let sampleAttributes = try await sample.attributeCatalogue().count
        var indexes = [(name: "sample (\(sampleAttributes) attributes)", attributes: sampleAttributes, index: sample)]
        for count in attributeCounts where count > sampleAttributes {
            let index = try SearchableIndex(url: folder.appendingPathComponent("attributes-\(count).sqlite"))
            try await index.indexSearchableItems(widened(items, extraKeys: count - sampleAttributes))
            indexes.append(("\(count) attributes", try await index.attributeCatalogue().count, index))
        }
        let models = [environment.modelURL] + (try EvaluationBenchmark.otherInstalledModels(than: environment.modelURL))
        let guides: [(SearchSetup.GuideLevel, FormatLevel)] = [(.complete, .structured), (.complete, .compact), (.focused, .structured), (.focused, .compact)]

        var rows: [BenchmarkRow] = []
        var notes: [String] = []
        for url in models {
            let vocabulary = try LocalModel.vocabularyOnly(contentsOf: url)
            let modelName = url.deletingPathExtension().lastPathComponent
            for (level, format) in guides {
                let guide = "\(level.rawValue) / \(format == .compact ? "compact" : "structured")"
                var costs: [(attributes: Int, tokens: Int)] = []
                var missedParts: [Int]?
                for entry in indexes {
                    let parts = try await guidanceTokens(entry.index, level, format, vocabulary)
                    let total = parts.reduce(0, +)
                    costs.append((entry.attributes, total))
                    let isGoalPoint = url == environment.modelURL && entry.index === sample
                    if isGoalPoint, let goal = goals[guide], Double(total) > goal { missedParts = parts }
                    rows.append(BenchmarkRow(
                        metric: "\(guide), \(entry.name), \(modelName)", ours: Double(total),
                        reference: entry.index === sample ? nil : Double(costs[0].tokens), unit: "tokens",
                        goal: isGoalPoint ? goals[guide] : nil, higherIsBetter: false,
                        note: parts.map(String.init).joined(separator: " + ") + (isGoalPoint ? before[guide].map { "; \($0) at 6456139" } ?? "" : "")))
                }
                guard let first = costs.first, let last = costs.last, last.attributes > first.attributes else { continue }
                let perAttribute = Double(last.tokens - first.tokens) / Double(last.attributes - first.attributes)
                notes.append(String(format: "%@, %@: %.1f tokens per added attribute (%d → %d attributes)", guide, modelName,
                                    perAttribute, first.attributes, last.attributes))
                if let parts = missedParts, let goal = goals[guide] {
                    let catalogue = try await catalogueTokens(sample, level, format, vocabulary)
                    notes.append(missedNote(guide, parts: parts, goal: Int(goal), perAttribute: perAttribute, catalogue: catalogue))
                }
            }
        }
        for url in models {
            let counter = try LocalModel.vocabularyOnly(contentsOf: url)
            let modelName = url.deletingPathExtension().lastPathComponent
            for format in [FormatLevel.structured, .compact] {
                let formatName = format == .compact ? "compact" : "structured"
                let costs = try await OutputCost.measure(sample, format: format, counter: counter)
                let before = url == environment.modelURL ? outputBefore[formatName] : nil
                rows.append(BenchmarkRow(metric: "search output per call, focused / \(formatName), \(modelName)", ours: costs.tokensPerCall,
                                         reference: nil, unit: "tokens", goal: nil, higherIsBetter: false,
                                         note: String(format: "%.1f rows a call, %.1f tokens a row", costs.rowsPerCall, costs.tokensPerRow)
                                            + (before.map { String(format: "; %.0f a call, %.1f a row at 7ea8f5c", $0.call, $0.row) } ?? "")))
                let fields = costs.fields.map { String(format: "%@ %.1f", $0.name, $0.tokens) }.joined(separator: ", ")
                notes.append("Search output, focused / \(formatName), \(modelName): tokens per row by field (\(costs.rows) rows of "
                             + "\(OutputCost.questions.count) questions' searches): \(fields); rows whose description and snippet repeat each other: \(costs.repeatedTexts).")
                if format == .structured {
                    rows.append(BenchmarkRow(metric: "fetch_item output, \(OutputCost.fetchedIdentifier), \(modelName)", ours: Double(costs.fetchTokens),
                                             reference: nil, unit: "tokens", goal: nil, higherIsBetter: false,
                                             note: costs.fetchFields.map { "\($0.name) \($0.tokens)" }.joined(separator: ", ")))
                }
            }
        }
        return SectionReport(
            name: "guidance", title: "Guidance tokens: instructions, tool descriptions and schemas per guide, format, index width and tokenizer; tool outputs per row and field",
            reference: "the same guide on the sample index (the ratio is the growth with the index's width); goals on the sample index with the default model",
            rows: rows,
            notes: ["Counted as `ask budget` counts them: the instructions, and the description and schema of spotlight_search and "
                    + "fetch_item; the chat template's own text and the reserved answer are left out. Wider indexes: the sample's "
                    + "14 items, each with custom keys added up to the attribute count (numbers, few-valued strings, dates and "
                    + "free strings in turn). Each part is in the note: instructions + search description + search schema + fetch "
                    + "description + fetch schema."] + notes)
    }

    /// What each part of the guidance is, in the order `guidanceTokens` gives them.
    static let partNames = ["instructions", "search description", "search schema", "fetch description", "fetch schema"]

    /// Where a missed goal's tokens go: each part, the largest, and what the attribute catalogue
    /// (its `- name …` lines, counted) takes of the instructions.
    static func missedNote(_ guide: String, parts: [Int], goal: Int, perAttribute: Double, catalogue: (lines: Int, tokens: Int)) -> String {
        let total = parts.reduce(0, +)
        let named = zip(partNames, parts).map { "\($0) \($1)" }.joined(separator: ", ")
        let largest = zip(partNames, parts).max { $0.1 < $1.1 }.map { "the \($0.0) (\($0.1))" } ?? "–"
        let tools = total - (parts.first ?? 0)
        return "\(guide): missed, \(total) tokens against \(goal). Where they go: \(named); the largest is \(largest). "
            + "The catalogue's \(catalogue.lines) attribute lines take \(catalogue.tokens) of the instructions' \(parts.first ?? 0) "
            + String(format: "(an attribute added to a wider index costs %.1f tokens over all parts). ", perAttribute)
            + (goal > tools
               ? "With the tools' parts as they are (\(tools)), the goal leaves \(goal - tools) tokens for the instructions."
               : "The tools' parts alone (\(tools)) exceed the goal.")
    }

    /// The instructions' attribute lines (`- name …`) for one guide, and their tokens.
    static func catalogueTokens(_ index: SearchableIndex, _ level: SearchSetup.GuideLevel, _ format: FormatLevel, _ vocabulary: LocalModel) async throws
        -> (lines: Int, tokens: Int) {
        let setup = try await SearchSetup(index: index, guide: level, format: format)
        let lines = setup.instructions.split(separator: "\n").filter { $0.hasPrefix("- ") }
        return (lines.count, try vocabulary.tokenizer.countTokens(in: lines.joined(separator: "\n"), parseSpecial: false))
    }

    /// The guidance's parts (`partNames`) in tokens, for one guide over one index, with `ask`'s wiring.
    static func guidanceTokens(_ index: SearchableIndex, _ level: SearchSetup.GuideLevel, _ format: FormatLevel, _ vocabulary: LocalModel) async throws
        -> [Int] {
        let setup = try await SearchSetup(index: index, guide: level, format: format)
        let (session, tool) = setup.makeSession(model: vocabulary, window: .k8, thinking: false)
        defer { tool.finish() }
        let report = try session.budgetReport(for: Prompt(""))
        let parts = report.sections.filter { [BudgetSection.Kind.instructions, .toolDescription, .toolSchema].contains($0.kind) }
        return parts.map(\.tokens)
    }

    /// The items with `extraKeys` custom keys each, of the four kinds in turn, so an index
    /// gets as wide as an app's.
    static func widened(_ items: [SearchableItem], extraKeys: Int) -> [SearchableItem] {
        items.enumerated().map { position, item in
            var item = item
            for key in 0..<extraKeys {
                let kinds = ["Number", "Category", "Date", "Note"]
                guard let custom = CustomAttributeKey(keyName: "extra\(kinds[key % 4])\(key / 4 + 1)") else { continue }
                let value: AttributeValue = switch key % 4 {
                case 0: .number(Double(position * (key + 3) % 97) + 0.5)
                case 1: .string(["red", "green", "blue", "grey"][(position + key) % 4])
                case 2: .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(position * 86_400 * (key + 1))))
                default: .string("free text \(position) of key \(key) \(item.uniqueIdentifier)")
                }
                item.attributeSet.setValue(value, forCustomKey: custom)
            }
            return item
        }
    }
}
