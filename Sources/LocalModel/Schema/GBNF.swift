/// Spelling helpers for llama.cpp's GBNF (grammars/README.md in llama.cpp): literals, character
/// classes, bounded repetition and rule names, written the one way the parser surely accepts.
enum GBNF {
    /// `text` as a GBNF string literal, quotes included.
    static func literal(_ text: String) -> String {
        var out = ""
        QuotedText.write(text, to: &out, controlEscape: hex)
        return out
    }

    /// A character class from inclusive scalar ranges; `negated` for `[^…]`.
    static func characterClass(_ ranges: [ClosedRange<UInt32>], negated: Bool = false) -> String {
        var out = negated ? "[^" : "["
        for range in ranges {
            out += classCharacter(range.lowerBound)
            if range.upperBound != range.lowerBound { out += "-" + classCharacter(range.upperBound) }
        }
        return out + "]"
    }

    private static func classCharacter(_ value: UInt32) -> String {
        if let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic && value < 0x80 || (0x30...0x39).contains(value) {
            return String(Character(scalar))
        }
        return hex(value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        if value <= 0xFF { return "\\x" + String(repeating: "0", count: 2 - digits.count) + digits }
        if value <= 0xFFFF { return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits }
        return "\\U" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// llama.cpp reads a repetition maximum above this as "no maximum" and refuses a minimum
    /// above it, so maxima are clamped to it and callers refuse larger minima.
    static let repetitionLimit = 2000

    /// `item` repeated between `minimum` and `maximum` times (maximum clamped to
    /// `repetitionLimit`, minimum at most that), or "" for none.
    /// `item` must be a single term (a rule name, literal, class or parenthesized group).
    static func repeated(_ item: String, minimum: Int, maximum: Int) -> String {
        let maximum = min(maximum, repetitionLimit)
        switch (minimum, maximum) {
        case (_, 0): return ""
        case (0, 1): return item + "?"
        case (1, 1): return item
        case let (m, n) where m == n: return "\(item){\(m)}"
        default: return "\(item){\(minimum),\(maximum)}"
        }
    }

    /// A sequence of terms, skipping empty ones.
    static func sequence(_ terms: [String]) -> String { terms.filter { !$0.isEmpty }.joined(separator: " ") }

    /// `terms` as one term: parenthesized when it is more than a single term.
    static func group(_ expression: String) -> String {
        isSingleTerm(expression) ? expression : "(" + expression + ")"
    }

    private static func isSingleTerm(_ e: String) -> Bool {
        if e.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) { return !e.isEmpty }
        // A lone literal or class: starts with its opener and the only unescaped closer is last.
        guard let first = e.first, first == "\"" || first == "[" else { return false }
        let closer: Character = first == "\"" ? "\"" : "]"
        var escaped = false
        for (i, c) in e.dropFirst().enumerated() {
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == closer { return i == e.count - 2 }
        }
        return false
    }

    /// A rule name llama.cpp accepts (letters, digits, '-') made from arbitrary text.
    static func ruleName(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
            if ok { out.unicodeScalars.append(c) } else if !out.hasSuffix("-") { out += "-" }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "x" : out
    }
}
