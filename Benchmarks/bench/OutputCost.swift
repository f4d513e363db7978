import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// What the tool outputs cost in the prompt, field by field (issue 48 §2), for the guidance
/// section: the search tool's output for a few of the trail samples' questions, each with the
/// query a model writes for it, and fetch_item's output for one item, with `ask`'s wiring
/// (`SearchSetup`) on the sample index. Each field of a result row is counted as the row writes
/// it (the structured format's `"key":value,`, the compact format's cell and separator), so the
/// fields add up to the row.
enum OutputCost {
    /// A question of trails-samples.jsonl and the query a model writes for it (the terms its
    /// grammar allows: the question's words).
    static let questions: [(question: String, query: JSONValue)] = [
        ("Which trails in California have water features?", ["terms": ["water", "features"]]),
        ("Which hikes had a lake?", ["terms": ["lake"]]),
        ("Tell me about the Maple Pass Loop: where is it and how long is it?", ["terms": ["maple", "pass", "loop"]]),
        ("How many trails have I hiked in California?", ["terms": ["trails"]]),
        ("Which trails did I finish this year?", ["dates": ["attribute": "contentCreationDate", "from": "this_year"]]),
    ]
    /// The item whose fetch_item output is counted.
    static let fetchedIdentifier = "trail-007"

    /// Tokens per result row by field, and per call, averaged over `questions`.
    struct Costs {
        /// Field name → mean tokens per row.
        var fields: [(name: String, tokens: Double)]
        var rowsPerCall: Double
        var tokensPerRow: Double
        /// Mean tokens of a whole search output (header, rows, notes).
        var tokensPerCall: Double
        /// fetch_item's output: field → tokens, and the whole.
        var fetchFields: [(name: String, tokens: Int)]
        var fetchTokens: Int
        /// Rows whose description and snippet hold the same text (one inside the other).
        var repeatedTexts: Int
        var rows: Int
    }

    static func measure(_ index: SearchableIndex, format: FormatLevel, counter: LocalModel) async throws -> Costs {
        let setup = try await SearchSetup(index: index, guide: .focused, format: format, now: { Date(timeIntervalSince1970: 1_796_000_000) })
        var fieldTokens: [String: Int] = [:]
        var order: [String] = []
        var rows = 0, callTokens = 0, rowTokens = 0, repeated = 0
        for (question, query) in questions {
            let (_, tool) = setup.makeSession(model: counter, window: .k8, thinking: false)
            defer { tool.finish() }
            _ = await tool.parameters(for: Prompt(question))
            let output = try await tool.call(arguments: SearchTool.Arguments(["query": query]))
            callTokens += try counter.tokenizer.countTokens(in: output, parseSpecial: false)
            let lines = output.split(separator: "\n").map(String.init)
            var cells: [(String, String)] = []
            if format == .structured {
                for line in lines where line.hasPrefix("{\"id\"") {
                    guard case .object(let object)? = try? JSONValue(parsing: line) else { continue }
                    rows += 1
                    rowTokens += try counter.tokenizer.countTokens(in: line, parseSpecial: false)
                    let row = object.map { key, value in (key, "\(JSONValue.string(key).jsonString):\(value.jsonString),") }
                    cells += row
                    if let description = object["contentDescription"]?.stringValue, let snippet = object["snippet"]?.stringValue,
                       snippet.contains(description.trimmingCharacters(in: .punctuationCharacters)) || description.contains(snippet.trimmingCharacters(in: CharacterSet(charactersIn: "…"))) {
                        repeated += 1
                    }
                }
            } else if let header = lines.firstIndex(where: { $0.hasPrefix("id | ") || $0.hasPrefix("score | ") }) {
                let columns = lines[header].components(separatedBy: " | ")
                cells.append(("column line", lines[header] + "\n"))
                for line in lines[(header + 1)...] {
                    let values = line.components(separatedBy: " | ")
                    guard values.count == columns.count else { break }
                    rows += 1
                    rowTokens += try counter.tokenizer.countTokens(in: line, parseSpecial: false)
                    cells += zip(columns, values).map { ($0, $1 + " | ") }
                }
            }
            for (name, text) in cells {
                if fieldTokens[name] == nil { order.append(name) }
                fieldTokens[name, default: 0] += try counter.tokenizer.countTokens(in: text, parseSpecial: false)
            }
        }
        let (_, tool) = setup.makeSession(model: counter, window: .k8, thinking: false)
        defer { tool.finish() }
        _ = try await tool.call(arguments: SearchTool.Arguments(["query": ["terms": ["maple"]]]))
        let fetched = try await tool.fetchTool.call(arguments: FetchItemTool.Arguments(["id": .string(fetchedIdentifier)]))
        var fetchFields: [(String, Int)] = []
        var current: (name: String, text: String)?
        for line in fetched.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let colon = line.firstIndex(of: ":"), !line[..<colon].contains(" ") || line.hasPrefix("text") {
                if let current { fetchFields.append((current.name, try counter.tokenizer.countTokens(in: current.text, parseSpecial: false))) }
                current = (String(line[..<colon]), line + "\n")
            } else {
                current?.text += line + "\n"
            }
        }
        if let current { fetchFields.append((current.name, try counter.tokenizer.countTokens(in: current.text, parseSpecial: false))) }
        let calls = Double(questions.count)
        return Costs(fields: order.map { ($0, Double(fieldTokens[$0] ?? 0) / Double(max(rows, 1))) },
                     rowsPerCall: Double(rows) / calls, tokensPerRow: Double(rowTokens) / Double(max(rows, 1)),
                     tokensPerCall: Double(callTokens) / calls, fetchFields: fetchFields,
                     fetchTokens: try counter.tokenizer.countTokens(in: fetched, parseSpecial: false), repeatedTexts: repeated, rows: rows)
    }
}
