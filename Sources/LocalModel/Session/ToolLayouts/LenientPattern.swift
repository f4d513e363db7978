/// A delimiter as a model may space it: each run of whitespace in the pattern stands for any
/// run of whitespace in the text, none included (`{ "name"` finds `{"name"` and `{\n  "name"`);
/// every other character must be there as written. Compared by Unicode scalars, as
/// `ToolCallSyntax` compares its delimiters.
struct LenientPattern: Sendable, Hashable {
    /// The pattern as written.
    let text: String
    /// Its parts between whitespace runs.
    private let words: [[Unicode.Scalar]]

    init(_ text: String) {
        self.text = text
        words = text.split(whereSeparator: \.isWhitespace).map { Array($0.unicodeScalars) }
    }

    /// The pattern without its whitespace: what the engine compares token text with once the
    /// token text's whitespace is dropped too (`ForbiddenOpenings`).
    var compact: String { words.map { String(String.UnicodeScalarView($0)) }.joined() }

    enum Match: Equatable {
        case none
        /// The text ends inside the pattern: more text may complete it.
        case partial
        /// The pattern ends at `end`.
        case complete(end: String.Index)
    }

    /// Whether the pattern starts at `start` (a scalar boundary of `text`).
    func match(in text: Substring, at start: String.Index) -> Match {
        let scalars = text.unicodeScalars
        var index = start
        for (position, word) in words.enumerated() {
            if position > 0 {
                while index < scalars.endIndex, scalars[index].properties.isWhitespace { index = scalars.index(after: index) }
            }
            for scalar in word {
                guard index < scalars.endIndex else { return .partial }
                guard scalars[index] == scalar else { return .none }
                index = scalars.index(after: index)
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
