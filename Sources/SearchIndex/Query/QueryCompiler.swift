import Foundation

/// Turns `QueryPredicate`s into parameterized SQL over `items i`. Values are always bound, never
/// spliced; the only identifiers in the SQL text come from the fixed schema.
struct QueryCompiler {
    let customKeys: [String: CustomKeyRecord]
    /// The index's time zone, in which its stored day numbers are counted.
    let timeZone: TimeZone

    enum Resolved {
        case column(SQL, AttributeKind)
        case text
        case custom(String, AttributeKind)
    }

    func resolve(_ attribute: SearchableItemAttribute) throws(SearchIndexError) -> Resolved {
        if attribute == .textContent { return .text }
        if let kind = attribute.standardKind { return .column(IndexSchema.itemColumn(attribute.rawValue), kind) }
        if let record = customKeys[attribute.rawValue] { return .custom(record.key.keyName, record.kind) }
        throw .unknownAttribute(attribute.rawValue)
    }

    func compile(_ predicate: QueryPredicate) throws(SearchIndexError) -> SQL {
        switch predicate {
        case .all:
            return "1"
        case let .fullText(text, prefix):
            guard let expression = Self.ftsExpression(text, prefix: prefix, column: nil) else { return "0" }
            return "i.rowid IN (SELECT rowid FROM fts WHERE fts MATCH \(expression))"
        case .meaning:
            throw .unsupportedOperation("a search by meaning inside OR or NOT; use it as the whole query or as a part of a top-level AND")
        case let .compare(attribute, op, value):
            return try compare(attribute, op, value)
        case let .inRange(attribute, lower, upper):
            switch try resolve(attribute) {
            case let .column(column, kind) where kind == .number || kind == .date:
                let (low, high) = (try bind(lower, for: attribute, kind), try bind(upper, for: attribute, kind))
                return dayBounded(attribute, lower: lower.dateValue, upper: upper.dateValue, "\(column) BETWEEN \(low) AND \(high)")
            case let .custom(key, kind) where kind == .number || kind == .date:
                let (low, high) = (try bind(lower, for: attribute, kind), try bind(upper, for: attribute, kind))
                return "i.rowid IN (SELECT item FROM custom_values WHERE key = \(key) AND number BETWEEN \(low) AND \(high))"
            default:
                throw .unsupportedOperation("InRange needs a number or date attribute; \(attribute) is not one")
            }
        case let .match(attribute, pattern, kind, options):
            return try match(attribute, pattern: pattern, kind: kind, options: options)
        case let .contains(attribute, value):
            return try match(attribute, pattern: value, kind: .exact, options: [])
        case .contentType(let type):
            return "i.contentType = \(type)"
        case .contentTypeConforms(let type):
            // Every type conforms to public.item, including ones the table does not know.
            if type.lowercased() == "public.item" { return "i.contentType IS NOT NULL" }
            return "i.contentType IN (\(values: ContentTypeTree.conformingTypes(to: type).map(SQLiteValue.text)))"
        case .domain(let domain):
            return "(i.domain = \(domain) OR (i.domain >= \(domain + ".") AND i.domain < \(domain + "/")))"
        case .exists(let attribute):
            switch try resolve(attribute) {
            case .column(let column, _): return "\(column) IS NOT NULL"
            case .text: return "i.textLength IS NOT NULL"
            case .custom(let key, _): return "i.rowid IN (SELECT item FROM custom_values WHERE key = \(key))"
            }
        case .and(let parts):
            return try join(parts, with: "AND", empty: "1")
        case .or(let parts):
            return try join(parts, with: "OR", empty: "0")
        case .not(let inner):
            // coalesce: a missing attribute makes a comparison NULL; NOT of it must be true.
            let condition = try compile(inner)
            return "NOT coalesce((\(condition)), 0)"
        }
    }

    private func join(_ parts: [QueryPredicate], with connective: String, empty: SQL) throws(SearchIndexError) -> SQL {
        guard !parts.isEmpty else { return empty }
        var pieces: [SQL] = []
        for part in parts {
            let condition = try compile(part)
            pieces.append("(\(condition))")
        }
        return pieces.joined(separator: " \(connective) ")
    }

    private func bind(_ value: AttributeValue, for attribute: SearchableItemAttribute,
                      _ kind: AttributeKind) throws(SearchIndexError) -> SQLiteValue {
        switch (value, kind) {
        case (.number(let number), .number): return .real(number)
        case (.date(let date), .date): return .real(date.timeIntervalSince1970)
        case (.string(let text), .string), (.string(let text), .strings): return .text(text)
        default: throw .attributeKindMismatch(attribute: attribute.rawValue, expected: kind, found: value.kind)
        }
    }

    private func compare(_ attribute: SearchableItemAttribute, _ op: ComparisonOperator,
                         _ value: AttributeValue) throws(SearchIndexError) -> SQL {
        if op == .notEqual {
            let equal = try compare(attribute, .equal, value)
            return "NOT coalesce((\(equal)), 0)"
        }
        let resolved = try resolve(attribute)
        switch resolved {
        case let .column(_, kind), let .custom(_, kind):
            if kind == .number, case .string(let text) = value, let number = Self.number(text) {
                return try compare(attribute, op, .number(number))
            }
            if kind == .string || kind == .strings {
                guard op == .equal, case .string(let text) = value else {
                    throw .unsupportedOperation("\(attribute) holds strings; compare it with == or != and a quoted value")
                }
                return try match(attribute, pattern: text, kind: .exact, options: [])
            }
            let bound = try bind(value, for: attribute, kind)
            if case .column(let column, _) = resolved {
                let date = value.dateValue
                return dayBounded(attribute, lower: op == .less || op == .lessOrEqual ? nil : date,
                                  upper: op == .greater || op == .greaterOrEqual ? nil : date,
                                  "\(column) \(sql: op.rawValue) \(bound)")
            }
            guard case .custom(let key, _) = resolved else { return "0" }
            return "i.rowid IN (SELECT item FROM custom_values WHERE key = \(key) AND number \(sql: op.rawValue) \(bound))"
        case .text:
            guard op == .equal, case .string(let text) = value else {
                throw .unsupportedOperation("textContent holds text; compare it with == or != and a quoted value")
            }
            return try match(attribute, pattern: text, kind: .exact, options: [])
        }
    }

    /// A condition on a standard date column, ANDed with the day-number range it implies, so that
    /// SQLite walks the (day, date) index instead of scanning. The range is widened by two days on
    /// each side: a day number is monotone in the instant except across a time-zone offset change,
    /// and no offset changes by two days, so the extra condition never drops a matching item.
    private func dayBounded(_ attribute: SearchableItemAttribute, lower: Date?, upper: Date?,
                            _ condition: SQL) -> SQL {
        guard attribute.standardKind == .date, lower != nil || upper != nil else { return condition }
        let day = IndexSchema.itemColumn(IndexSchema.dayColumn(attribute))
        var parts: [SQL] = []
        if let lower { parts.append("\(day) >= \(DayNumber.of(lower, in: timeZone) - 2)") }
        if let upper { parts.append("\(day) <= \(DayNumber.of(upper, in: timeZone) + 2)") }
        return "(\(parts.joined(separator: " AND ")) AND \(condition))"
    }

    private func match(_ attribute: SearchableItemAttribute, pattern: String, kind: StringMatchKind,
                       options: StringMatchOptions) throws(SearchIndexError) -> SQL {
        let flags = (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "")
        let globPattern: String
        switch kind {
        case .exact: globPattern = StringPattern.escape(pattern)
        case .prefix: globPattern = StringPattern.escape(pattern) + "*"
        case .contains: globPattern = "*" + StringPattern.escape(pattern) + "*"
        case .word, .wildcard: globPattern = pattern
        }
        let wordFlag = kind == .word ? "w" : ""
        let resolved = try resolve(attribute)
        // A number written in quotes (`fileSize == "1024"`) is compared as a number.
        switch resolved {
        case let .column(_, valueKind) where valueKind == .number, let .custom(_, valueKind) where valueKind == .number:
            if kind == .exact, options.isEmpty, let number = Self.number(pattern) { return try compare(attribute, .equal, .number(number)) }
        default: break
        }
        switch resolved {
        case .text:
            // Candidates from the full-text index, then the exact condition on the stored text.
            let check: SQL = "lantern_text_match((SELECT t.data FROM item_text t WHERE t.rowid = i.rowid), \(globPattern), \(flags + wordFlag))"
            let words = TextContentMatch.candidateWords(globPattern)
            guard let expression = Self.ftsExpression(words.joined(separator: " "), prefix: false, column: "body") else {
                return "(i.textLength IS NOT NULL AND \(check))"
            }
            return "(i.textLength IS NOT NULL AND i.rowid IN (SELECT rowid FROM fts WHERE fts MATCH \(expression)) AND \(check))"
        case let .column(column, columnKind):
            guard columnKind == .string || columnKind == .strings else {
                throw .unsupportedOperation("\(attribute) holds \(columnKind) values; string matching needs a string attribute")
            }
            if flags.isEmpty, columnKind == .strings, kind == .exact || kind == .prefix {
                let member = Self.listMembership(attribute, pattern, prefix: kind == .prefix, table: "list_values")
                return "i.rowid IN (SELECT item FROM list_values WHERE \(member))"
            }
            if flags.isEmpty, kind == .exact || kind == .prefix {
                return Self.plainCondition(column, pattern, prefix: kind == .prefix)
            }
            let listFlag = columnKind == .strings ? "l" : ""
            return "lantern_match(\(column), \(globPattern), \(flags + wordFlag + listFlag))"
        case let .custom(key, customKind):
            guard customKind == .string || customKind == .strings else {
                throw .unsupportedOperation("\(attribute) holds \(customKind) values; string matching needs a string attribute")
            }
            if flags.isEmpty, kind == .exact || kind == .prefix {
                return "i.rowid IN (SELECT item FROM custom_values WHERE key = \(key) AND \(Self.plainCondition("text", pattern, prefix: kind == .prefix)))"
            }
            return "i.rowid IN (SELECT item FROM custom_values WHERE key = \(key) AND lantern_match(text, \(globPattern), \(flags + wordFlag)))"
        }
    }

    /// `condition`, and only items unexpired at `date` when one is given (while a batch keeps
    /// the writer from purging expired items).
    static func hidingExpired(_ condition: SQL, at date: Date?) -> SQL {
        guard let date else { return condition }
        return "(\(condition)) AND (i.expiration IS NULL OR i.expiration > \(date.timeIntervalSince1970))"
    }

    /// A finite number written as text (`"1024"`, `" 2.5 "`); nil for anything else.
    static func number(_ text: String) -> Double? {
        guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else { return nil }
        return number
    }

    /// The rows of `table` (the `list_values` table or its alias) holding `value`, or a value
    /// starting with it, as an element of the list attribute.
    static func listMembership(_ attribute: SearchableItemAttribute, _ value: String, prefix: Bool, table: String) -> SQL {
        "\(sql: table).attribute = \(IndexSchema.listCode(attribute)) AND \(plainCondition(SQL(sql: "\(table).value"), value, prefix: prefix))"
    }

    /// Exact or prefix comparison an index can serve (a prefix as a half-open range).
    private static func plainCondition(_ column: SQL, _ value: String, prefix: Bool) -> SQL {
        prefix ? "(\(column) >= \(value) AND \(column) < \(value + "\u{10FFFF}"))" : "\(column) = \(value)"
    }

    /// An FTS5 MATCH expression in which every word of `text` is a quoted string, so operators,
    /// quotes and parentheses in the input are searched for, never interpreted. Nil when `text`
    /// has no word characters.
    static func ftsExpression(_ text: String, prefix: Bool, column: String?) -> String? {
        let words = fullTextWords(text)
        guard !words.isEmpty else { return nil }
        let quoted = words.enumerated().map { index, word in
            let phrase = phrase(word) + (prefix && index == words.count - 1 ? "*" : "")
            return column.map { "\($0) : \(phrase)" } ?? phrase
        }
        return quoted.joined(separator: " AND ")
    }

    /// The words of full-text input: runs of letters, digits and ideographs.
    static func fullTextWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.isIdeographic {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// An FTS5 string (a phrase of one word, searched for as written, never as syntax).
    static func phrase(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// SQL for ORDER BY one attribute (missing values last).
    func order(_ attribute: SearchableItemAttribute, ascending: Bool) throws(SearchIndexError) -> SQL {
        let direction = ascending ? "ASC" : "DESC"
        switch try resolve(attribute) {
        case .column(let column, _): return "\(column) \(sql: direction) NULLS LAST"
        case .text: throw .unsupportedOperation("sorting by textContent; sort by title or a date instead")
        case let .custom(key, kind):
            let field = kind == .number || kind == .date ? "number" : "text"
            return "(SELECT \(sql: field) FROM custom_values WHERE key = \(key) AND item = i.rowid LIMIT 1) \(sql: direction) NULLS LAST"
        }
    }

    /// A numeric expression of one row, for statistics.
    func numericExpression(_ attribute: SearchableItemAttribute) throws(SearchIndexError) -> SQL {
        switch try resolve(attribute) {
        case let .column(column, kind) where kind == .number || kind == .date: return column
        case let .custom(key, kind) where kind == .number || kind == .date:
            return "(SELECT number FROM custom_values WHERE key = \(key) AND item = i.rowid LIMIT 1)"
        default: throw .unsupportedOperation("a statistic of \(attribute), which is not a number or a date")
        }
    }
}
