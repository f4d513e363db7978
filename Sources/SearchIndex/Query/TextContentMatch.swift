/// String comparisons on `textContent` as Apple's File Metadata Query Expression Syntax defines
/// them (`kMDItemTextContent == "Paris"`, `"Paris"c`, `"Paris"wc`, `"*Paris*"`, `"Pari?"`): without
/// `w` the pattern must match the whole text, with `w` one word of it; without `c` case matters,
/// without `d` diacritics do; `*` and `?` are wildcards. The same `StringPattern` matching the other
/// string attributes use, applied to the stored text by the SQL function
/// `lantern_text_match(item_text.data, pattern, flags)`.
///
/// To stay fast on a large index, `candidateWords` picks the words of the pattern every matching
/// text must hold as whole words, and the query asks FTS5 for the items holding them before the
/// stored text of each is decompressed and checked. FTS5 folds case and diacritics and stems, so
/// its answer is a superset of the exact one.
///
/// No prefix query is used for a word that a wildcard ends (`"Pari?"`, `"Par*"`): FTS5 stems the
/// prefix and the stored words alike, and a prefix's stem is not always a prefix of the stem of a
/// word it begins ("hopp" stays "hopp", "hopping" becomes "hop"), so a prefix query could lose
/// matching items. Such patterns, and ones with no whole word (`"*Paris*"`), check every item's
/// text.
enum TextContentMatch {
    /// Whether the textContent part of a stored `item_text` row (title, NUL, other text, NUL,
    /// textContent; see `ItemStore`) matches. False for a row that does not decode.
    static func matches(stored: [UInt8], pattern: String, flags: String) -> Bool {
        guard let text = TextCompression.decode(stored),
              let first = text.utf8.firstIndex(of: 0) else { return false }
        let afterFirst = text.utf8.index(after: first)
        guard let second = text.utf8[afterFirst...].firstIndex(of: 0) else { return false }
        let body = String(text.utf8[text.utf8.index(after: second)...]) ?? ""
        return StringPattern.cached(pattern, flags: flags).matches(body)
    }

    /// The words of a `StringPattern` pattern that every text it matches holds as whole words
    /// (as FTS5's tokenizer splits text): runs of letters and digits with, on both sides, a
    /// separator (space, punctuation, symbol) or the pattern's start or end. A word touching a
    /// wildcard, or a character whose tokenization is uncertain (a combining mark, a private-use
    /// or format character), is left out. The pattern's start and end bound a word: without `w`
    /// they are the text's, with `w` a word's.
    static func candidateWords(_ pattern: String) -> [String] {
        var words: [String] = []
        var current = ""
        var startBounded = true
        var escaped = false
        func close(bounded: Bool) {
            if bounded, startBounded, !current.isEmpty { words.append(current) }
            current = ""
            startBounded = bounded
        }
        for scalar in pattern.unicodeScalars {
            let isWildcard = !escaped && (scalar == "*" || scalar == "?")
            if !escaped, scalar == "\\" {
                escaped = true
                continue
            }
            escaped = false
            if isWildcard {
                close(bounded: false)
                continue
            }
            switch kind(of: scalar) {
            case .token: current.unicodeScalars.append(scalar)
            case .separator: close(bounded: true)
            case .uncertain: close(bounded: false)
            }
        }
        close(bounded: true)
        return words
    }

    private enum ScalarKind { case token, separator, uncertain }

    /// FTS5's unicode61 tokenizer keeps letters and digits (L*, N*) in tokens; spaces,
    /// punctuation, symbols and controls separate them. Anything else is treated as unknown.
    private static func kind(of scalar: Unicode.Scalar) -> ScalarKind {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return .token
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return .separator
        default:
            return .uncertain
        }
    }
}
