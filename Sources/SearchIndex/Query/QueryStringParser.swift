import Foundation

/// Parses Core Spotlight query strings into `QueryPredicate`s.
///
/// Grammar (Apple's `CSSearchQuery` / `MDQuery` syntax, "File Metadata Query Expression Syntax"):
///
///     expr       := and ('||' and)*
///     and        := unary ('&&' unary)*
///     unary      := '!' unary | '(' expr ')' | 'InRange(' attr ',' value ',' value ')'
///                 | 'Meaning(' string ')' | comparison
///     comparison := attr ('==' | '=' | '!=' | '<' | '<=' | '>' | '>=') ['[' modifiers ']'] value
///     attr       := name | '*' | '**'
///     value      := '"' text '"' [modifiers] | bare-word | number
///                 | $time.now|today|yesterday|this_week|this_month|this_year ['(' integer ')']
///                 | $time.iso(ISO-8601)
///     modifiers  := [cdwt]*
///
/// Names: Apple's `kMDItem…` names map to Lantern's attributes (`kMDItemAuthors` is `authorNames`,
/// `kMDItemFSSize` is `fileSize`, `kMDItemContentTypeTree` matches a type and every type it
/// conforms to; see `SpotlightAttributeName`); other names are Lantern's own or a custom key's.
///
/// Values: modifiers go in brackets after the operator (`==[cd] "Paris"`, the current guide) or
/// after the string (`"Paris"cd`, the older one), or both; `c` ignores case, `d` diacritics, `w`
/// (or `t`) matches word by word. In strings, `*` matches any run of characters, `?` any one
/// character, and `\` escapes either. Quotes may be left out of a value that is one bare word
/// (`kMDItemContentType == public.audio`). A number written in quotes (`kMDItemFSSize > "1"`) is
/// compared as a number. `*` / `**` as the attribute searches all text (BM25-ranked full-text).
/// Numbers must be finite.
///
/// `Meaning("water getting in")` is Lantern's own: a search by meaning (`QueryPredicate.meaning`),
/// the whole query or a part of a top-level `&&` (elsewhere the search is a typed error); the
/// rest of the query filters what it ranks.
///
/// `$time` offsets are integers in the variable's own unit, as in Apple's syntax, which has no
/// unit letters: seconds for `now`, days for `today`/`yesterday`, weeks, months or years for
/// `this_week`, `this_month`, `this_year`; at most 10,000 years either way. `today`,
/// `this_week`… are the starts of those periods in `timeZone`.
///
/// Nesting is bounded: at most `maximumNestingDepth` levels of `(` and `!`, so no input can
/// overflow the stack, even on a 512 KiB secondary thread; `&&` and `||` chains of any length are
/// flat and parsed without recursion.
public struct QueryStringParser: Sendable {
    /// The deepest nesting a query string may have; each `(` and each `!` is one level. Deeper
    /// input is a `QueryStringError` at the opening that goes past it.
    public static let maximumNestingDepth = 128

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
        /// Open `(` and `!` around the current position.
        var depth = 0

        var atEnd: Bool { index >= characters.count }

        func error(expected: String) -> QueryStringError {
            let found = atEnd ? "the end of the query" : "'\(String(characters[index..<min(characters.count, index + 12)]))'"
            return QueryStringError(position: index, expected: expected, found: found)
        }

        func error(at position: Int, expected: String) -> QueryStringError {
            var copy = self
            copy.index = position
            return copy.error(expected: expected)
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

        /// One more level of nesting at the current position, or the positioned error past the limit.
        mutating func enterNesting() throws(QueryStringError) {
            guard depth < QueryStringParser.maximumNestingDepth else {
                throw error(expected: "at most \(QueryStringParser.maximumNestingDepth) levels of nesting (each '(' and '!' is one); write the query flatter")
            }
            depth += 1
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
                try enterNesting()
                index += 1
                let inner = try parseUnary()
                depth -= 1
                return .not(inner)
            }
            if !atEnd, characters[index] == "(" {
                try enterNesting()
                index += 1
                let inner = try parseOr()
                try expect(")")
                depth -= 1
                return inner
            }
            let start = index
            let name = identifier()
            if name == "InRange" || name == "inRange" { return try parseInRange() }
            skipSpaces()
            // without the parenthesis, `meaning == …` compares a custom key of that name
            if name == "Meaning" || name == "meaning", !atEnd, characters[index] == "(" { return try parseMeaning() }
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

        enum Attribute { case allText, named(SearchableItemAttribute), contentTypeTree }

        mutating func parseAttribute() throws(QueryStringError) -> Attribute {
            skipSpaces()
            if consume("**") || consume("*") { return .allText }
            let start = index
            guard let name = identifier(), name.first?.isLetter == true || name.first == "_" else {
                throw error(expected: "an attribute name (such as title), '*', '(' or '!'")
            }
            let target: SpotlightAttributeName.Target
            if name.hasPrefix("kMD") {
                guard let apple = SpotlightAttributeName.apple(name) else {
                    throw QueryStringError(position: start, expected: SpotlightAttributeName.knownNamesDescription,
                                           found: "'\(name)', which Lantern does not store")
                }
                target = apple
            } else {
                target = SpotlightAttributeName.lantern(name)
            }
            switch target {
            case .attribute(let attribute): return .named(attribute)
            case .contentTypeTree: return .contentTypeTree
            }
        }

        mutating func parseInRange() throws(QueryStringError) -> QueryPredicate {
            try expect("(")
            guard case .named(let attribute) = try parseAttribute() else {
                throw error(expected: "an attribute name; InRange needs a number or date attribute, not '*' or kMDItemContentTypeTree")
            }
            try expect(",")
            let lower = try parseBound()
            try expect(",")
            let upper = try parseBound()
            try expect(")")
            return .inRange(attribute, lower: lower, upper: upper)
        }

        mutating func parseMeaning() throws(QueryStringError) -> QueryPredicate {
            try expect("(")
            skipSpaces()
            let start = index
            guard !atEnd, characters[index] == "\"" || characters[index] == "'",
                  case .text(let text, _, _) = try parseValue(), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw error(at: start, expected: "the text to search for by meaning, in quotes: Meaning(\"water getting in\")")
            }
            try expect(")")
            return .meaning(text)
        }

        /// A number or date bound of InRange (a number may be written in quotes).
        mutating func parseBound() throws(QueryStringError) -> AttributeValue {
            skipSpaces()
            let start = index
            switch try parseValue() {
            case .scalar(let value): return value
            case let .text(text, _, _):
                if let scalar = try scalar(from: text, at: start) { return scalar }
                throw error(at: start, expected: "a number or $time value")
            }
        }

        enum Value { case text(String, modifiers: String, quoted: Bool), scalar(AttributeValue) }

        /// A number or ISO 8601 date written in quotes, as a number or date; nil for other text.
        func scalar(from text: String, at position: Int) throws(QueryStringError) -> AttributeValue? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let number = Double(trimmed) {
                guard number.isFinite else { throw error(at: position, expected: Self.finiteNumber) }
                return .number(number)
            }
            if trimmed.first?.isNumber == true, let date = Self.isoDate(trimmed, timeZone: parser.timeZone) { return .date(date) }
            return nil
        }

        static let finiteNumber = "a finite number (between -1.8e308 and 1.8e308)"

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
            let bracketed = try parseBracketModifiers()
            skipSpaces()
            let valueStart = index
            let value = try parseValue()
            switch (attribute, value) {
            case let (.allText, .text(text, _, _)):
                let words = text.replacingOccurrences(of: "*", with: " ").replacingOccurrences(of: "?", with: " ")
                let predicate = QueryPredicate.fullText(words.trimmingCharacters(in: .whitespaces), prefix: text.hasSuffix("*"))
                return op == .notEqual ? .not(predicate) : predicate
            case (.allText, .scalar), (.contentTypeTree, .scalar):
                throw QueryStringError(position: valueStart, expected: "a quoted string or a bare word after '*' or kMDItemContentTypeTree",
                                       found: "a number or date")
            case let (.contentTypeTree, .text(text, _, _)):
                guard op == .equal || op == .notEqual else {
                    throw QueryStringError(position: operatorStart, expected: "== or != before a content type", found: "'\(op.rawValue)'")
                }
                guard !text.contains("*"), !text.contains("?"), !text.isEmpty else {
                    throw error(at: valueStart, expected: "a content type (UTI) such as public.image, without wildcards")
                }
                let predicate = QueryPredicate.contentTypeConforms(to: text)
                return op == .notEqual ? .not(predicate) : predicate
            case let (.named(name), .scalar(scalar)):
                return .compare(name, op, scalar)
            case let (.named(name), .text(text, modifiers, _)):
                if op != .equal && op != .notEqual || name.standardKind == .number || name.standardKind == .date {
                    // A number or date in quotes compares as one (`kMDItemFSSize > "1"`).
                    if let scalar = try scalar(from: text, at: valueStart) { return .compare(name, op, scalar) }
                }
                guard op == .equal || op == .notEqual else {
                    throw QueryStringError(position: operatorStart, expected: "== or != before a string (only numbers and dates are ordered)",
                                           found: "'\(op.rawValue)'")
                }
                let predicate = Self.stringPredicate(name, text, modifiers: bracketed + modifiers)
                return op == .notEqual ? .not(predicate) : predicate
            }
        }

        /// Apple's bracketed modifiers right after the operator: `==[cd]`.
        mutating func parseBracketModifiers() throws(QueryStringError) -> String {
            guard !atEnd, characters[index] == "[" else { return "" }
            index += 1
            var modifiers = ""
            while !atEnd, characters[index] != "]" {
                guard "cdwt".contains(characters[index]) else {
                    throw error(expected: "a comparison modifier (c, d, w or t) or ']'")
                }
                modifiers.append(characters[index])
                index += 1
            }
            guard !atEnd else { throw error(expected: "']' closing the modifiers") }
            index += 1
            return modifiers
        }

        /// `"x"` exact, `"x*"` prefix, `"*x*"` contains, other `*` placements and any `?` a wildcard;
        /// `w`/`t` word-based.
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
            var singleWildcard = false
            for character in raw {
                if escaped { literal.append(character); escaped = false; offset += 1; continue }
                if character == "\\" { escaped = true; continue }
                if character == "?" { singleWildcard = true }
                if character == "*" { wildcardOffsets.append(offset) } else { literal.append(character); offset += 1 }
            }
            if wordBased { return .match(attribute, pattern: raw, kind: .word, options: options) }
            if singleWildcard { return .match(attribute, pattern: raw, kind: .wildcard, options: options) }
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

        /// Characters that end a bare (unquoted) value.
        static func endsBareWord(_ character: Character) -> Bool {
            character.isWhitespace || "()[],&|!=<>\"'".contains(character)
        }

        mutating func parseValue() throws(QueryStringError) -> Value {
            skipSpaces()
            guard !atEnd else { throw error(expected: "a value (a quoted string, a number or $time…)") }
            let character = characters[index]
            if character == "\"" || character == "'" { return try parseString(quote: character) }
            if character == "$" { return .scalar(.date(try parseTime())) }
            let start = index
            if character.isNumber || character == "-" || character == "+" || character == "." {
                index += 1
                while !atEnd, characters[index].isNumber || ".eE".contains(characters[index])
                        || ("+-".contains(characters[index]) && "eE".contains(characters[index - 1])) {
                    index += 1
                }
                let token = String(characters[start..<index])
                if atEnd || Self.endsBareWord(characters[index]) {
                    guard let number = Double(token) else {
                        index = start
                        throw error(expected: "a number")
                    }
                    guard number.isFinite else {
                        index = start
                        throw error(expected: Self.finiteNumber)
                    }
                    return .scalar(.number(number))
                }
                if token.hasPrefix("0"), characters[index] == "x" || characters[index] == "X" {
                    index += 1
                    let digitsStart = index
                    while !atEnd, characters[index].isHexDigit { index += 1 }
                    if index > digitsStart, atEnd || Self.endsBareWord(characters[index]),
                       let number = UInt64(String(characters[digitsStart..<index]), radix: 16) {
                        return .scalar(.number(Double(number)))
                    }
                }
                // Not a number after all (`2024-report.txt`): a bare word.
                index = start
            }
            guard !Self.endsBareWord(character) else {
                throw error(expected: "a value (a quoted string, a number, $time… or a bare word such as public.audio)")
            }
            while !atEnd, !Self.endsBareWord(characters[index]) { index += 1 }
            return .text(String(characters[start..<index]), modifiers: "", quoted: false)
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
            return .text(text, modifiers: modifiers, quoted: true)
        }

        /// The unit each `$time` variable's offset counts, and the largest offset (10,000 years).
        static let timeVariables: [String: (unit: String, limit: Int)] = [
            "now": ("seconds", 315_569_520_000), "today": ("days", 3_652_425), "yesterday": ("days", 3_652_425),
            "this_week": ("weeks", 521_775), "this_month": ("months", 120_000), "this_year": ("years", 10_000),
        ]

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
            guard let variable = Self.timeVariables[name] else {
                index = nameStart
                throw error(expected: "one of now, today, yesterday, this_week, this_month, this_year, iso")
            }
            var offset = 0
            if consume("(") {
                skipSpaces()
                let numberStart = index
                if !atEnd, "+-".contains(characters[index]) { index += 1 }
                while !atEnd, characters[index].isNumber { index += 1 }
                let digits = String(characters[numberStart..<index])
                let range = "an offset between -\(variable.limit) and \(variable.limit) \(variable.unit) (10,000 years)"
                guard digits.contains(where: \.isNumber) else {
                    index = numberStart
                    throw error(expected: "an integer offset in \(variable.unit) such as -7")
                }
                guard let value = Int(digits), abs(value) <= variable.limit else {
                    index = numberStart
                    throw error(expected: range)
                }
                skipSpaces()
                if !atEnd, characters[index].isLetter {
                    throw error(expected: "')': a $time offset is a plain integer counted in the variable's own unit (\(variable.unit) for $time.\(name)); Apple's syntax has no unit letters, so write $time.today(-30) for 30 days ago, $time.this_month(-1) for last month")
                }
                offset = value
                try expect(")")
            }
            let now = parser.now
            let startOfToday = calendar.startOfDay(for: now)
            func shifted(_ date: Date?, _ component: Calendar.Component) -> Date? {
                date.flatMap { calendar.date(byAdding: component, value: offset, to: $0) }
            }
            let result: Date? = switch name {
            case "now": now.addingTimeInterval(Double(offset))
            case "today": shifted(startOfToday, .day)
            case "yesterday": shifted(calendar.date(byAdding: .day, value: -1, to: startOfToday), .day)
            case "this_week": shifted(calendar.dateInterval(of: .weekOfYear, for: now)?.start, .weekOfYear)
            case "this_month": shifted(calendar.dateInterval(of: .month, for: now)?.start, .month)
            default: shifted(calendar.dateInterval(of: .year, for: now)?.start, .year)
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
