import Foundation

/// Parses Core Spotlight query strings into `QueryPredicate`s.
///
/// Grammar (Apple's `CSSearchQuery` / `MDQuery` syntax):
///
///     expr       := and ('||' and)*
///     and        := unary ('&&' unary)*
///     unary      := '!' unary | '(' expr ')' | 'InRange(' attr ',' value ',' value ')' | comparison
///     comparison := attr ('==' | '!=' | '<' | '<=' | '>' | '>=') value
///     attr       := name | '*' | '**'          (`kMDItemTitle` is read as `title`)
///     value      := '"' text '"' [cdwt]* | number | $time.now|today|yesterday|this_week|this_month|this_year ['(' n ')']
///                 | $time.iso(ISO-8601)
///
/// In strings, `*` is a wildcard and `\` escapes. `*` / `**` as the attribute searches all text
/// (BM25-ranked full-text). `$time` offsets count seconds for `now`, otherwise days, weeks, months
/// or years of the named unit; `today`, `this_week`… are the starts of those periods in `timeZone`.
public struct QueryStringParser: Sendable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date = Date(), timeZone: TimeZone = .current) {
        self.now = now
        self.timeZone = timeZone
    }

    public func parse(_ string: String) throws(QueryStringError) -> QueryPredicate {
        var cursor = Cursor(characters: Array(string), parser: self)
        let predicate = try cursor.parseOr()
        cursor.skipSpaces()
        guard cursor.atEnd else { throw cursor.error(expected: "'&&', '||' or the end of the query") }
        return predicate
    }

    private struct Cursor {
        let characters: [Character]
        let parser: QueryStringParser
        var index = 0

        var atEnd: Bool { index >= characters.count }

        func error(expected: String) -> QueryStringError {
            let found = atEnd ? "the end of the query" : "'\(String(characters[index..<min(characters.count, index + 12)]))'"
            return QueryStringError(position: index, expected: expected, found: found)
        }

        mutating func skipSpaces() {
            while !atEnd, characters[index].isWhitespace { index += 1 }
        }

        mutating func consume(_ text: String) -> Bool {
            skipSpaces()
            let expected = Array(text)
            guard index + expected.count <= characters.count,
                  Array(characters[index..<index + expected.count]) == expected else { return false }
            index += expected.count
            return true
        }

        mutating func expect(_ text: String) throws(QueryStringError) {
            guard consume(text) else { throw error(expected: "'\(text)'") }
        }

        mutating func parseOr() throws(QueryStringError) -> QueryPredicate {
            var parts = [try parseAnd()]
            while consume("||") { parts.append(try parseAnd()) }
            return parts.count == 1 ? parts[0] : .or(parts)
        }

        mutating func parseAnd() throws(QueryStringError) -> QueryPredicate {
            var parts = [try parseUnary()]
            while consume("&&") { parts.append(try parseUnary()) }
            return parts.count == 1 ? parts[0] : .and(parts)
        }

        mutating func parseUnary() throws(QueryStringError) -> QueryPredicate {
            skipSpaces()
            if !atEnd, characters[index] == "!", index + 1 >= characters.count || characters[index + 1] != "=" {
                index += 1
                return .not(try parseUnary())
            }
            if consume("(") {
                let inner = try parseOr()
                try expect(")")
                return inner
            }
            let start = index
            if let name = identifier(), name == "InRange" {
                return try parseInRange()
            }
            index = start
            return try parseComparison()
        }

        mutating func identifier() -> String? {
            skipSpaces()
            let start = index
            while !atEnd, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "." {
                index += 1
            }
            return index > start ? String(characters[start..<index]) : nil
        }

        enum Attribute { case allText, named(SearchableItemAttribute) }

        mutating func parseAttribute() throws(QueryStringError) -> Attribute {
            skipSpaces()
            if consume("**") || consume("*") { return .allText }
            guard let name = identifier(), name.first?.isLetter == true || name.first == "_" else {
                throw error(expected: "an attribute name (such as title), '*', '(' or '!'")
            }
            var normalized = name
            if name.hasPrefix("kMDItem"), name.count > 7 {
                let rest = name.dropFirst(7)
                normalized = rest.prefix(1).lowercased() + rest.dropFirst()
            }
            return .named(SearchableItemAttribute(rawValue: normalized))
        }

        mutating func parseInRange() throws(QueryStringError) -> QueryPredicate {
            try expect("(")
            guard case .named(let attribute) = try parseAttribute() else {
                throw error(expected: "an attribute name; InRange needs a number or date attribute, not '*'")
            }
            try expect(",")
            let lowerStart = index
            guard case .scalar(let lower) = try parseValue() else {
                index = lowerStart
                throw error(expected: "a number or $time value")
            }
            try expect(",")
            let upperStart = index
            guard case .scalar(let upper) = try parseValue() else {
                index = upperStart
                throw error(expected: "a number or $time value")
            }
            try expect(")")
            return .inRange(attribute, lower: lower, upper: upper)
        }

        enum Value { case text(String, modifiers: String), scalar(AttributeValue) }

        mutating func parseComparison() throws(QueryStringError) -> QueryPredicate {
            let attribute = try parseAttribute()
            skipSpaces()
            let operatorStart = index
            var op: ComparisonOperator?
            for candidate in [ComparisonOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
                where consume(candidate.rawValue) {
                op = candidate
                break
            }
            if op == nil, consume("=") { op = .equal }
            guard let op else {
                index = operatorStart
                throw error(expected: "a comparison operator (==, !=, <, <=, >, >=)")
            }
            let value = try parseValue()
            switch (attribute, value) {
            case let (.allText, .text(text, _)):
                let predicate = QueryPredicate.fullText(text.replacingOccurrences(of: "*", with: " ").trimmingCharacters(in: .whitespaces),
                                                        prefix: text.hasSuffix("*"))
                return op == .notEqual ? .not(predicate) : predicate
            case (.allText, .scalar):
                throw QueryStringError(position: operatorStart, expected: "a quoted string after '*' (all text)", found: "a number or date")
            case let (.named(name), .scalar(scalar)):
                return .compare(name, op, scalar)
            case let (.named(name), .text(text, modifiers)):
                guard op == .equal || op == .notEqual else {
                    throw QueryStringError(position: operatorStart, expected: "== or != before a quoted string", found: "'\(op.rawValue)'")
                }
                let predicate = Self.stringPredicate(name, text, modifiers: modifiers)
                return op == .notEqual ? .not(predicate) : predicate
            }
        }

        /// `"x"` exact, `"x*"` prefix, `"*x*"` contains, other `*` placements a wildcard; `w`/`t` word-based.
        static func stringPredicate(_ attribute: SearchableItemAttribute, _ raw: String, modifiers: String) -> QueryPredicate {
            var options: StringMatchOptions = []
            if modifiers.contains("c") { options.insert(.caseInsensitive) }
            if modifiers.contains("d") { options.insert(.diacriticInsensitive) }
            let wordBased = modifiers.contains("w") || modifiers.contains("t")
            // Find unescaped wildcards and the literal text.
            var literal = ""
            var wildcardOffsets: [Int] = []
            var escaped = false
            var offset = 0
            for character in raw {
                if escaped { literal.append(character); escaped = false; offset += 1; continue }
                if character == "\\" { escaped = true; continue }
                if character == "*" { wildcardOffsets.append(offset) } else { literal.append(character); offset += 1 }
            }
            if wordBased { return .match(attribute, pattern: raw, kind: .word, options: options) }
            if attribute == SearchableItemAttribute(rawValue: "domainIdentifier"), wildcardOffsets.isEmpty {
                return .domain(literal)
            }
            if attribute == .contentType, wildcardOffsets.isEmpty, options.isEmpty { return .contentType(literal) }
            let count = literal.count
            switch wildcardOffsets {
            case []: return .match(attribute, pattern: literal, kind: .exact, options: options)
            case [count] where count > 0: return .match(attribute, pattern: literal, kind: .prefix, options: options)
            case [0, count] where count > 0: return .match(attribute, pattern: literal, kind: .contains, options: options)
            default: return .match(attribute, pattern: raw, kind: .wildcard, options: options)
            }
        }

        mutating func parseValue() throws(QueryStringError) -> Value {
            skipSpaces()
            guard !atEnd else { throw error(expected: "a value (a quoted string, a number or $time…)") }
            let character = characters[index]
            if character == "\"" || character == "'" { return try parseString(quote: character) }
            if character == "$" { return .scalar(.date(try parseTime())) }
            if character.isNumber || character == "-" || character == "+" || character == "." {
                let start = index
                index += 1
                while !atEnd, characters[index].isNumber || ".eE".contains(characters[index])
                        || ("+-".contains(characters[index]) && "eE".contains(characters[index - 1])) {
                    index += 1
                }
                guard let number = Double(String(characters[start..<index])) else {
                    index = start
                    throw error(expected: "a number")
                }
                return .scalar(.number(number))
            }
            throw error(expected: "a value (a quoted string, a number or $time…)")
        }

        mutating func parseString(quote: Character) throws(QueryStringError) -> Value {
            let start = index
            index += 1
            var text = ""
            while !atEnd, characters[index] != quote {
                if characters[index] == "\\", index + 1 < characters.count {
                    text.append("\\")
                    index += 1
                }
                text.append(characters[index])
                index += 1
            }
            guard !atEnd else {
                index = start
                throw error(expected: "a closing \(quote) for the string starting here")
            }
            index += 1
            var modifiers = ""
            while !atEnd, characters[index].isLetter {
                guard "cdwt".contains(characters[index]) else { throw error(expected: "a string modifier (c, d, w or t)") }
                modifiers.append(characters[index])
                index += 1
            }
            return .text(text, modifiers: modifiers)
        }

        mutating func parseTime() throws(QueryStringError) -> Date {
            let start = index
            guard consume("$time.") else { throw error(expected: "$time.now, $time.today, … or $time.iso(…)") }
            let nameStart = index
            guard let name = identifier() else { throw error(expected: "a $time variable name") }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = parser.timeZone
            calendar.firstWeekday = 2
            if name == "iso" {
                try expect("(")
                skipSpaces()
                let textStart = index
                while !atEnd, characters[index] != ")" { index += 1 }
                let text = String(characters[textStart..<index]).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
                guard let date = Self.isoDate(text, timeZone: parser.timeZone) else {
                    index = textStart
                    throw error(expected: "an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z")
                }
                try expect(")")
                return date
            }
            var offset = 0
            if consume("(") {
                skipSpaces()
                let numberStart = index
                if !atEnd, "+-".contains(characters[index]) { index += 1 }
                while !atEnd, characters[index].isNumber { index += 1 }
                guard let value = Int(String(characters[numberStart..<index])) else {
                    index = numberStart
                    throw error(expected: "an integer offset such as -7")
                }
                offset = value
                try expect(")")
            }
            let now = parser.now
            let startOfToday = calendar.startOfDay(for: now)
            func shifted(_ date: Date?, _ component: Calendar.Component) -> Date? {
                date.flatMap { calendar.date(byAdding: component, value: offset, to: $0) }
            }
            let result: Date?
            switch name {
            case "now": result = now.addingTimeInterval(Double(offset))
            case "today": result = shifted(startOfToday, .day)
            case "yesterday": result = shifted(calendar.date(byAdding: .day, value: -1, to: startOfToday), .day)
            case "this_week": result = shifted(calendar.dateInterval(of: .weekOfYear, for: now)?.start, .weekOfYear)
            case "this_month": result = shifted(calendar.dateInterval(of: .month, for: now)?.start, .month)
            case "this_year": result = shifted(calendar.dateInterval(of: .year, for: now)?.start, .year)
            default:
                index = nameStart
                throw error(expected: "one of now, today, yesterday, this_week, this_month, this_year, iso")
            }
            guard let result else {
                index = start
                throw error(expected: "a representable date")
            }
            return result
        }

        static func isoDate(_ text: String, timeZone: TimeZone) -> Date? {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = timeZone
            for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
                                                          [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate],
                                                          [.withFullDate, .withDashSeparatorInDate]] {
                formatter.formatOptions = options
                if let date = formatter.date(from: text) { return date }
            }
            return nil
        }
    }
}
