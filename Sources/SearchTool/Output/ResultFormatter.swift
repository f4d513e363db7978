import Foundation
import LocalModel
import SearchIndex

/// Writes what the model reads: exactly the fetched attributes (and identifiers), then each
/// result's best passage (its snippet, where it is, the query words it holds), in the guide's
/// format, within `maximumResponseSize` UTF-8 characters, with item text framed so it cannot act
/// as markup (`TextFraming`).
struct ResultFormatter: Sendable {
    let format: FormatLevel
    let maximumSize: Int?
    /// The order attributes are written in.
    let attributeOrder: [SearchableItemAttribute]
    let timeZone: TimeZone

    /// A header, one line per item, notes; items that do not fit are counted in a marker line.
    /// `passages` holds the best passage of the items that have one, by identifier.
    func items(_ items: [SearchableItem], scores: [Double]? = nil, header: String, notes: [String] = [],
               passages: [String: PassageMatch] = [:]) -> String {
        let (columns, lines) = itemLines(items, scores: scores, passages: passages)
        return assemble(header: header, lines: columns.map { [$0] + lines } ?? lines, unit: "results", notes: notes,
                        fixedLines: columns == nil ? 0 : 1)
    }

    /// A column line (compact format) and one line per item.
    private func itemLines(_ items: [SearchableItem], scores: [Double]?, passages: [String: PassageMatch]) -> (columns: String?, lines: [String]) {
        if format == .compact {
            guard !items.isEmpty else { return (nil, []) }
            let present = attributeOrder.filter { attribute in items.contains { $0.attributeSet[attribute] != nil } }
            let shown = items.contains { passages[$0.uniqueIdentifier] != nil }
            let columns = (scores == nil ? [] : ["score"]) + ["id"] + present.map(\.rawValue) + (shown ? PassageField.allCases.map(\.rawValue) : [])
            let lines = items.enumerated().map { number, item in
                let score = scores.map { [self.number($0[number])] } ?? []
                let passage = shown ? PassageField.allCases.map { $0.value(of: passages[item.uniqueIdentifier]).map(TextFraming.singleLine) ?? "-" } : []
                return (score + [TextFraming.singleLine(item.uniqueIdentifier)] + present.map { cell(item.attributeSet[$0]) } + passage)
                    .joined(separator: " | ")
            }
            return (columns.joined(separator: " | "), lines)
        }
        let lines = items.enumerated().map { number, item in
            var object: JSONObject = ["id": .string(TextFraming.neutralized(item.uniqueIdentifier))]
            if let scores { object["score"] = .double(scores[number]) }
            for attribute in attributeOrder { if let value = item.attributeSet[attribute] { object[attribute.rawValue] = json(value) } }
            for field in PassageField.allCases {
                if let value = field.value(of: passages[item.uniqueIdentifier]) { object[field.rawValue] = .string(TextFraming.neutralized(value)) }
            }
            return JSONValue.object(object).jsonString
        }
        return (nil, lines)
    }

    /// What a result line shows of its best passage, after the attributes.
    enum PassageField: String, CaseIterable {
        /// The passage's text around the query's words.
        case snippet
        /// Where the passage is, for an item of more than one passage: "passage 12 of 80, page 40".
        case at
        /// The query's words the passage holds.
        case matched

        func value(of match: PassageMatch?) -> String? {
            guard let match else { return nil }
            switch self {
            case .snippet: return match.snippet
            case .at:
                guard match.passage.count > 1 else { return nil }
                return "passage \(match.passage.index) of \(match.passage.count), \(match.passage.location)"
            case .matched: return match.matchedWords.isEmpty ? nil : match.matchedWords.joined(separator: " ")
            }
        }
    }

    /// The output of a stage.
    func data(_ data: SearchPipelineData, header: String, notes: [String] = [], passages: [String: PassageMatch] = [:]) -> String {
        switch data {
        case .items(let items):
            return self.items(items, header: header, notes: notes, passages: passages)
        case .scoredItems(let scored):
            return items(scored.map(\.item), scores: scored.map(\.score), header: header + " (best first)", notes: notes, passages: passages)
        case .groupedItems:
            return assemble(header: header, lines: resultSentences(data), unit: "groups", notes: notes)
        case .count, .statistic:
            return assemble(header: header, lines: resultSentences(data), unit: "lines", notes: notes)
        case .table(let table):
            let lines = [table.columns.joined(separator: " | ")] + table.rows.map { $0.map(TextFraming.singleLine).joined(separator: " | ") }
            return assemble(header: header, lines: lines, unit: "rows", notes: notes, fixedLines: 1)
        case .text(let text):
            return assemble(header: header, lines: [TextFraming.neutralized(text.body)], unit: "lines", notes: notes)
        }
    }

    /// What an aggregate says, one sentence a line (`4 items match.`, `California: 4 items, e.g.
    /// trail-001.`): the lines the model reads, and the text an answer may quote of them
    /// (`ShownSources`), so a quoted count is verbatim the tool's output. Empty for item rows,
    /// tables and text.
    func resultSentences(_ data: SearchPipelineData) -> [String] {
        switch data {
        case .groupedItems(let groups):
            return groups.map { group in
                var line = "\(TextFraming.singleLine(group.label)): \(Self.items(group.count))"
                if let value = group.value { line += " (\(number(value)))" }
                if !group.items.isEmpty { line += ", e.g. " + group.items.map { TextFraming.singleLine($0.uniqueIdentifier) }.joined(separator: ", ") }
                return line + "."
            }
        case .count(let count):
            return ["\(Self.items(count.value)) \(count.value == 1 ? "matches" : "match")."]
        case .statistic(let statistic):
            let value = statistic.value.map(number) ?? "no value (no item has one)"
            let titles = statistic.itemTitles.isEmpty ? "" : ": " + statistic.itemTitles.map(TextFraming.singleLine).joined(separator: ", ")
            return ["\(statistic.name): \(value) (from \(statistic.sampleCount) values\(titles))."]
        case .items, .scoredItems, .table, .text:
            return []
        }
    }

    private static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    /// Header, lines while they fit, then `[N results left out …]`, then notes.
    private func assemble(header: String, lines: [String], unit: String, notes: [String], fixedLines: Int = 0) -> String {
        let noteText = notes.map { "\n" + $0 }.joined()
        var text = header
        guard let maximumSize else { return ([header] + lines).joined(separator: "\n") + noteText }
        let reserve = 80 + noteText.utf8.count
        var shown = 0
        for line in lines {
            guard text.utf8.count + 1 + line.utf8.count + reserve <= maximumSize else { break }
            text += "\n" + line
            shown += 1
        }
        let left = (lines.count - fixedLines) - max(0, shown - fixedLines)
        if left > 0 {
            text += "\n[\(left) \(unit) left out: the response is limited to \(maximumSize) characters]"
        }
        return text + noteText
    }

    /// A value as one line of compact text.
    func compactValue(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): TextFraming.singleLine(text)
        case .strings(let texts): texts.map(TextFraming.singleLine).joined(separator: ", ")
        case .number(let number): self.number(number)
        case .date(let date): self.date(date)
        }
    }

    private func json(_ value: AttributeValue) -> JSONValue {
        switch value {
        case .string(let text): .string(TextFraming.neutralized(text))
        case .strings(let texts): .array(texts.map { .string(TextFraming.neutralized($0)) })
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
        case .date(let date): .string(self.date(date))
        }
    }

    func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.4g", value)
    }

    /// `YYYY-MM-DD`, or with the time when it is not midnight, in the index's time zone.
    func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        return c.hour == 0 && c.minute == 0 ? day : day + String(format: " %02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// A cell of a table.
    func cell(_ value: AttributeValue?) -> String { value.map(compactValue) ?? "-" }
}
