import CSentenceBreak

/// Sentence ends inside one paragraph, by ICU's sentence break iterator (UAX #29 with the CLDR's
/// English abbreviations suppressed: "e.g.", "Mt.", "Dr."), so "3.5 km", version numbers,
/// "5 p.m. today" and `a.b()` never end a sentence. ICU ends one before a number after any
/// full stop; after an abbreviation that introduces a number ("approx. 3.5 km", "fig. 3",
/// "p. 12") that is no end, so those two are joined again.
enum SentenceBoundaries {
    /// Abbreviations a number follows, lower case.
    private static let numberAbbreviations: Set<String> = ["approx.", "ca.", "fig.", "figs.", "no.", "nos.", "nr.", "p.", "pp.", "vol.", "ch.",
                                                   "sec.", "eq.", "art.", "ref.", "tab."]

    /// The sentences of `paragraph` as ranges of it, in order, each with the whitespace that
    /// follows it. A line break inside the paragraph is read as a space: the paragraph is text a
    /// source wrapped, and ICU would end a sentence at every line break.
    static func ranges(in paragraph: Substring) -> [Range<String.Index>] {
        let units = paragraph.utf16.map { isLineBreak($0) ? 0x20 : $0 }
        guard !units.isEmpty else { return [] }
        var ends = [Int32](repeating: 0, count: units.count + 1)
        let count = Int(lantern_sentence_ends(units, Int32(units.count), &ends, Int32(ends.count)))
        guard count > 0 else { return [paragraph.startIndex..<paragraph.endIndex] }
        var ranges: [Range<String.Index>] = []
        var start = paragraph.startIndex, offset = 0
        for end in ends.prefix(count).map(Int.init) {
            let index = paragraph.utf16.index(start, offsetBy: end - offset)
            offset = end
            if index > start { ranges.append(start..<index) }
            start = index
        }
        if start < paragraph.endIndex { ranges.append(start..<paragraph.endIndex) }
        return ranges.reduce(into: []) { joined, range in
            if let last = joined.last, endsInNumberAbbreviation(paragraph[last]), paragraph[range].first?.isNumber == true {
                joined[joined.count - 1] = last.lowerBound..<range.upperBound
            } else {
                joined.append(range)
            }
        }
    }

    /// Whether `sentence`'s last word is one of `numberAbbreviations`.
    private static func endsInNumberAbbreviation(_ sentence: Substring) -> Bool {
        let word = sentence.split(whereSeparator: \.isWhitespace).last.map { $0.drop { !$0.isLetter } } ?? ""
        return numberAbbreviations.contains(word.lowercased())
    }

    /// Line feed, carriage return, vertical tab, form feed, next line, line and paragraph separators.
    private static func isLineBreak(_ unit: UInt16) -> Bool {
        (0x0A...0x0D).contains(unit) || unit == 0x85 || unit == 0x2028 || unit == 0x2029
    }
}
