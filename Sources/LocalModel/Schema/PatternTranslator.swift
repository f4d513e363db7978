/// Translates the regular-expression subset a grammar can express into GBNF for the inside of
/// a JSON string.
///
/// Supported: literal characters and escaped punctuation, `.`, `\d \w \s \D \W \S`, `\n \t \r`,
/// classes `[a-z_]` / `[^…]`, groups `(…)` / `(?:…)`, `|`, and the quantifiers `? * + {m} {m,}
/// {m,n}`; `^` and `$` only at the ends. Open quantifiers (`*`, `+`, `{m,}`) are capped at
/// `openRepetitionLimit` so the string stays bounded. Backreferences, lookaround, word
/// boundaries and lazy quantifiers cannot be expressed and are rejected by name. Characters that
/// JSON must escape (`"`, `\`, tab, newline, return) are generated in their escaped form.
struct PatternTranslator {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private let path: String
    private let openRepetitionLimit: Int

    /// The characters a JSON string may hold unescaped: everything but `"`, `\` and controls.
    static let plainJSONExclusions: [ClosedRange<UInt32>] = [0x00...0x1F, 0x22...0x22, 0x5C...0x5C, 0x7F...0x7F]

    init(_ pattern: String, path: String, openRepetitionLimit: Int) {
        scalars = Array(pattern.unicodeScalars)
        self.path = path
        self.openRepetitionLimit = openRepetitionLimit
    }

    /// `pattern` without one leading `^` and one trailing unescaped `$`.
    static func unanchored(_ pattern: String) -> String {
        var p = Substring(pattern)
        if p.hasPrefix("^") { p = p.dropFirst() }
        if p.hasSuffix("$") && !p.hasSuffix("\\$") { p = p.dropLast() }
        return String(p)
    }

    /// `pattern` with `^` and `$`, so JSON Schema's search semantics match Lantern's whole match.
    static func anchored(_ pattern: String) -> String { "^" + unanchored(pattern) + "$" }

    /// The GBNF expression for the string's content (without the quotes).
    mutating func translate() throws(SchemaError) -> String {
        let expression = try alternation()
        if index < scalars.count { throw unsupported("an unmatched ')'") }
        return expression
    }

    private mutating func alternation() throws(SchemaError) -> String {
        var branches = [try concatenation()]
        while peek("|") {
            index += 1
            branches.append(try concatenation())
        }
        if branches.count == 1 { return branches[0] }
        return branches.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: " | ")
    }

    private mutating func concatenation() throws(SchemaError) -> String {
        var terms: [String] = []
        while index < scalars.count, !peek("|"), !peek(")") {
            let start = index
            if peek("^") && start == 0 { index += 1; continue }
            if peek("$") && start == scalars.count - 1 { index += 1; continue }
            let atom = try self.atom()
            let term = try quantified(atom)
            // Adjacent plain literals read better as one: "trail-" rather than "t" "r" "a" ...
            if let last = terms.last, Self.isPlainLiteral(last), Self.isPlainLiteral(term) {
                // Scalars, not Characters: a combining mark after the opening quote is one
                // Character with it, and dropping that Character dropped the mark.
                terms[terms.count - 1] = String(String.UnicodeScalarView(last.unicodeScalars.dropLast()))
                    + String(String.UnicodeScalarView(term.unicodeScalars.dropFirst()))
            } else {
                terms.append(term)
            }
        }
        return GBNF.sequence(terms)
    }

    private mutating func quantified(_ atom: String) throws(SchemaError) -> String {
        guard index < scalars.count else { return atom }
        var bounds: (Int, Int)?
        switch scalars[index] {
        case "?": index += 1; bounds = (0, 1)
        case "*": index += 1; bounds = (0, openRepetitionLimit)
        case "+": index += 1; bounds = (1, max(1, openRepetitionLimit))
        case "{":
            guard let close = scalars[index...].firstIndex(of: "}") else { return atom }
            let body = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let m = Int(parts[0]) else { throw unsupported("the quantifier {\(body)}") }
            if parts.count == 1 { bounds = (m, m) }
            else if parts.count == 2, parts[1].isEmpty { bounds = (m, max(m, openRepetitionLimit)) }
            else if parts.count == 2, let n = Int(parts[1]), n >= m { bounds = (m, n) }
            else { throw unsupported("the quantifier {\(body)}") }
            index = close + 1
        default: return atom
        }
        if peek("?") || peek("+") { throw unsupported("lazy or possessive quantifiers") }
        guard let (m, n) = bounds else { return atom }
        if m > GBNF.repetitionLimit { throw unsupported("a repetition of at least \(m) (llama.cpp repeats at most \(GBNF.repetitionLimit) times)") }
        return GBNF.repeated(GBNF.group(atom), minimum: m, maximum: n)
    }

    private mutating func atom() throws(SchemaError) -> String {
        let c = scalars[index]
        index += 1
        switch c {
        case "(":
            if peek("?") {
                guard index + 1 < scalars.count, scalars[index + 1] == ":" else { throw unsupported("lookaround or named groups '(?'") }
                index += 2
            }
            let inner = try alternation()
            guard peek(")") else { throw unsupported("an unclosed '('") }
            index += 1
            return "(" + (inner.isEmpty ? "\"\"" : inner) + ")"
        case "[": return try characterClass()
        case ".": return GBNF.characterClass(Self.plainJSONExclusions, negated: true)
        case "\\":
            guard index < scalars.count else { throw unsupported("a trailing backslash") }
            let e = scalars[index]
            index += 1
            if let ranges = Self.shorthand(e) { return Self.expression(for: ranges, negated: false) }
            if e.properties.isUppercase, let ranges = Self.shorthand(lowercased(e)) {
                return Self.expression(for: ranges, negated: true)
            }
            if let literal = try escapedLiteral(e) { return Self.literal(literal) }
            throw unsupported("the escape \\\(e)")
        case "^", "$": throw unsupported("'\(c)' away from the ends of the pattern")
        case "*", "+", "?", "{": throw unsupported("a quantifier '\(c)' with nothing to repeat")
        default: return Self.literal(c)
        }
    }

    private func lowercased(_ e: Unicode.Scalar) -> Unicode.Scalar {
        e.properties.lowercaseMapping.unicodeScalars.first ?? e
    }

    /// Escapes that stand for one literal character; letters other than n/t/r/f/v/0 and
    /// digits (backreferences) are not literals.
    private mutating func escapedLiteral(_ e: Unicode.Scalar) throws(SchemaError) -> Unicode.Scalar? {
        switch e {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b", "B": throw unsupported("word boundaries \\b/\\B")
        case "u":
            guard index + 4 <= scalars.count,
                  let value = UInt32(String(String.UnicodeScalarView(scalars[index..<(index + 4)])), radix: 16),
                  let scalar = Unicode.Scalar(value) else { throw unsupported("a malformed \\u escape") }
            index += 4
            return scalar
        default:
            if e.properties.isAlphabetic || (e >= "0" && e <= "9") { return nil }
            return e
        }
    }

    /// `\d \w \s` as scalar ranges.
    private static func shorthand(_ e: Unicode.Scalar) -> [ClosedRange<UInt32>]? {
        switch e {
        case "d": return [0x30...0x39]
        case "w": return [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        case "s": return [0x09...0x0A, 0x0D...0x0D, 0x20...0x20]
        default: return nil
        }
    }

    private mutating func characterClass() throws(SchemaError) -> String {
        var negated = false
        if peek("^") { negated = true; index += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while index < scalars.count, !(peek("]") && !first) {
            first = false
            var low = scalars[index]
            index += 1
            if low == "\\" {
                guard index < scalars.count else { throw unsupported("a trailing backslash") }
                let e = scalars[index]
                index += 1
                if let set = Self.shorthand(e) { ranges += set; continue }
                guard let literal = try escapedLiteral(e) else { throw unsupported("the escape \\\(e) inside a class") }
                low = literal
            }
            var high = low
            if peek("-"), index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                high = scalars[index]
                index += 1
                if high == "\\" {
                    guard index < scalars.count, let literal = try escapedLiteral(scalars[index]) else { throw unsupported("a class range ending in an escape") }
                    index += 1
                    high = literal
                }
                guard high.value >= low.value else { throw unsupported("the reversed class range \(low)-\(high)") }
            }
            ranges.append(low.value...high.value)
        }
        guard peek("]") else { throw unsupported("an unclosed '['") }
        index += 1
        return Self.expression(for: ranges, negated: negated)
    }

    /// A class of scalars as it appears inside a JSON string: plain characters as a GBNF class,
    /// plus the escaped spelling of `"`, `\`, tab, newline and return when the class holds them.
    /// A negated class never produces characters JSON must escape.
    private static func expression(for ranges: [ClosedRange<UInt32>], negated: Bool) -> String {
        if negated { return GBNF.characterClass(ranges + plainJSONExclusions, negated: true) }
        var plain: [ClosedRange<UInt32>] = []
        for range in ranges {
            var pieces = [range]
            for excluded in plainJSONExclusions {
                pieces = pieces.flatMap { piece -> [ClosedRange<UInt32>] in
                    guard piece.overlaps(excluded) else { return [piece] }
                    var rest: [ClosedRange<UInt32>] = []
                    if piece.lowerBound < excluded.lowerBound { rest.append(piece.lowerBound...(excluded.lowerBound - 1)) }
                    if piece.upperBound > excluded.upperBound { rest.append((excluded.upperBound + 1)...piece.upperBound) }
                    return rest
                }
            }
            plain += pieces
        }
        var alternatives = plain.isEmpty ? [] : [GBNF.characterClass(plain)]
        for special in ["\"", "\\", "\t", "\n", "\r"] as [Unicode.Scalar] where ranges.contains(where: { $0.contains(special.value) }) {
            alternatives.append(literal(special))
        }
        if alternatives.isEmpty { return "[^\\x00-\\U0010FFFF]" }  // an empty class matches nothing
        return alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " | ") + ")"
    }

    /// One character as it is written inside a JSON string, as a GBNF literal. The quotes are
    /// dropped as scalars: a combining mark (U+0659) joins the opening quote in one Character.
    private static func literal(_ c: Unicode.Scalar) -> String {
        let json = JSONValue.quoted(String(Character(c))).unicodeScalars
        return GBNF.literal(String(String.UnicodeScalarView(json.dropFirst().dropLast())))
    }

    /// A lone GBNF string literal with nothing after its closing quote.
    private static func isPlainLiteral(_ term: String) -> Bool {
        let scalars = term.unicodeScalars
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return false }
        var escaped = false
        for c in scalars.dropFirst().dropLast() {
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { return false }
        }
        return !escaped
    }

    private func peek(_ c: Unicode.Scalar) -> Bool { index < scalars.count && scalars[index] == c }

    private func unsupported(_ feature: String) -> SchemaError {
        .unsupported(construct: "pattern feature \(feature)", path: path,
                     hint: "patterns may use literals, classes, groups, | and quantifiers; simplify the pattern or use an enum")
    }
}
