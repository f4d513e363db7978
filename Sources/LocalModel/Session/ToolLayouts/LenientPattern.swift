/// A delimiter as a model may space it: each run of whitespace in the pattern stands for any
/// run of whitespace in the text, none included (`{ "name"` finds `{"name"` and `{\n  "name"`);
/// every other character must be there as written. Compared by Unicode scalars, as
/// `ToolCallSyntax` compares its delimiters, or by UTF-8 bytes with ASCII whitespace, as the
/// engine watches generated text for a lazy grammar's triggers (`TriggerWatch`).
struct LenientPattern: Sendable, Hashable {
    /// The pattern as written.
    let text: String
    /// Its parts between whitespace runs.
    private let words: [[Unicode.Scalar]]
    /// The same parts in UTF-8.
    private let utf8Words: [[UInt8]]

    init(_ text: String) {
        self.text = text
        words = text.split(whereSeparator: \.isWhitespace).map { Array($0.unicodeScalars) }
        utf8Words = text.split(whereSeparator: \.isWhitespace).map { Array($0.utf8) }
    }

    /// The parts between whitespace runs, for a regular expression or a grammar that spaces
    /// them the same way.
    var parts: [String] { words.map { String(String.UnicodeScalarView($0)) } }

    /// The pattern without its whitespace: what the engine compares token text with once the
    /// token text's whitespace is dropped too (`ForbiddenOpenings`).
    var compact: String { parts.joined() }

    enum Match<Position: Comparable>: Equatable {
        case none
        /// The text ends inside the pattern: more text may complete it.
        case partial
        /// The pattern ends at `end`.
        case complete(end: Position)
    }

    /// Whether the pattern starts at `start` (a scalar boundary of `text`).
    func match(in text: Substring, at start: String.Index) -> Match<String.Index> {
        Self.match(words, in: text.unicodeScalars, at: start) { $0.properties.isWhitespace }
    }

    /// Whether the pattern starts at byte `start` of UTF-8 `bytes`; whitespace is what
    /// ECMAScript's `\s` is in a byte string (space, tab, line feed, vertical tab, form feed,
    /// carriage return), as in the trigger regex llama.cpp's lazy grammar runs.
    func match<Bytes: BidirectionalCollection<UInt8>>(inUTF8 bytes: Bytes, at start: Bytes.Index) -> Match<Bytes.Index> {
        Self.match(utf8Words, in: bytes, at: start) { $0 == 0x20 || (0x09...0x0D).contains($0) }
    }

    private static func match<Elements: BidirectionalCollection>(
        _ words: [[Elements.Element]], in elements: Elements, at start: Elements.Index, isWhitespace: (Elements.Element) -> Bool
    ) -> Match<Elements.Index> where Elements.Element: Equatable {
        var index = start
        for (position, word) in words.enumerated() {
            if position > 0 {
                while index < elements.endIndex, isWhitespace(elements[index]) { index = elements.index(after: index) }
            }
            for element in word {
                guard index < elements.endIndex else { return .partial }
                guard elements[index] == element else { return .none }
                index = elements.index(after: index)
            }
        }
        return .complete(end: index)
    }
}

extension Array where Element == LenientPattern {
    /// The earliest complete match of any of the patterns in `text` (the longest where two start
    /// together), and where the earliest match that the end of `text` cuts starts, if any.
    func firstMatch(in text: Substring) -> (complete: (range: Range<String.Index>, pattern: LenientPattern)?, partialStart: String.Index?) {
        let firsts = Set(compactMap { $0.text.unicodeScalars.first { !$0.properties.isWhitespace } })
        var partialStart: String.Index?
        var index = text.unicodeScalars.startIndex
        while index < text.unicodeScalars.endIndex {
            if firsts.contains(text.unicodeScalars[index]) {
                var best: (range: Range<String.Index>, pattern: LenientPattern)?
                for pattern in self {
                    switch pattern.match(in: text, at: index) {
                    case .complete(let end):
                        if best.map({ end > $0.range.upperBound }) ?? true { best = (index..<end, pattern) }
                    case .partial:
                        if partialStart == nil { partialStart = index }
                    case .none:
                        break
                    }
                }
                if let best { return (best, partialStart) }
            }
            index = text.unicodeScalars.index(after: index)
        }
        return (nil, partialStart)
    }
}
