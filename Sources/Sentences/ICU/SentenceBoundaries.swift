import CSentenceBreak

/// Sentence ends inside one paragraph, by ICU's sentence break iterator (UAX #29 with the CLDR's
/// English abbreviations suppressed: "e.g.", "Mr.", "Mt."), so "3.5 km", version numbers,
/// "5 p.m. today" and `a.b()` never end a sentence.
///
/// Corrections after ICU, each a case it gets wrong in English prose:
/// - a sentence end with no space after it, outside scripts written without spaces, is none;
/// - a title or an abbreviation the CLDR list lacks ("Dr. Kahale", "St. Mary", "approx. 3.5 l",
///   "fig. 3", "Jan. 2024") ends no sentence;
/// - a paragraph's leading number ("1. Crew Safety", a numbered heading or contents line) ends none;
/// - a full stop after a word, before a number and a lower-case word ("we went over budget.
///   3 coats of limewash followed") ends one, which ICU reads as an abbreviation before a number.
enum SentenceBoundaries {
    /// Abbreviations, lower case, after which a sentence does not end when what follows is a
    /// name (titles) or a number (words before a number, months before a year); "no." before
    /// "We" ends one.
    private static let abbreviations: [Substring: Follower] = {
        let names = ["dr.", "st.", "gen.", "lt.", "col.", "sgt.", "rev.", "hon.", "sen.", "rep.", "gov.", "messrs.", "mt.", "ft."]
        let numbers = ["approx.", "ca.", "fig.", "figs.", "no.", "nos.", "nr.", "p.", "pp.", "vol.", "ch.", "sec.", "eq.", "art.", "ref.", "tab.",
                       "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec."]
        return Dictionary(uniqueKeysWithValues: names.map { (Substring($0), Follower.name) } + numbers.map { (Substring($0), Follower.number) })
    }()

    private enum Follower {
        case name, number

        func begins(_ text: Substring) -> Bool {
            guard let first = text.first(where: { !$0.isWhitespace }) else { return false }
            return self == .name ? first.isUppercase : first.isNumber
        }
    }

    /// The sentences of `paragraph` as ranges of it, in order, each with the whitespace that
    /// follows it. A line break inside the paragraph is read as a space: the paragraph is text a
    /// source wrapped, and ICU would end a sentence at every line break.
    static func ranges(in paragraph: Substring) -> [Range<String.Index>] {
        let split = icuRanges(in: paragraph).flatMap { splitBeforeNumbers(paragraph[$0]) }
        return split.reduce(into: []) { joined, range in
            if let last = joined.last, continues(paragraph[last], with: paragraph[range], first: joined.count == 1) {
                joined[joined.count - 1] = last.lowerBound..<range.upperBound
            } else {
                joined.append(range)
            }
        }
    }

    /// ICU's sentences of `paragraph`, line breaks read as spaces.
    private static func icuRanges(in paragraph: Substring) -> [Range<String.Index>] {
        let units = paragraph.utf16.map { isLineBreak($0) ? 0x20 : $0 }
        guard !units.isEmpty else { return [] }
        // ICU counts in 32 bits; a paragraph past that (a library caller's text, no file's) is one
        guard units.count < Int(Int32.max) else { return [paragraph.startIndex..<paragraph.endIndex] }
        var ends = [Int32](repeating: 0, count: units.count + 1)
        let count = Int(lantern_sentence_ends(units, Int32(units.count), &ends, Int32(ends.count)))
        guard count > 0 else { return [paragraph.startIndex..<paragraph.endIndex] }
        var ranges: [Range<String.Index>] = []
        var start = paragraph.startIndex, offset = 0
        var position = paragraph.startIndex
        for end in ends.prefix(count).map(Int.init) {
            position = paragraph.utf16.index(position, offsetBy: end - offset)
            offset = end
            // ICU breaks between code points; a sentence ends between characters (a combining
            // mark after a space is one character with it)
            var index = position
            while index > start, index.samePosition(in: paragraph.base) == nil { index = paragraph.unicodeScalars.index(before: index) }
            if index > start { ranges.append(start..<index) }
            start = index
        }
        if start < paragraph.endIndex { ranges.append(start..<paragraph.endIndex) }
        return ranges
    }

    /// `sentence` cut after each full stop that follows a word of letters and hyphens (two or
    /// more, no abbreviation) or of digits and comes before a space and a digit.
    private static func splitBeforeNumbers(_ sentence: Substring) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start = sentence.startIndex
        var index = sentence.startIndex
        while let stop = sentence[index...].firstIndex(of: ".") {
            index = sentence.index(after: stop)
            guard index < sentence.endIndex, sentence[index] == " ",
                  let next = sentence[index...].first(where: { $0 != " " }), next.isNumber else { continue }
            let word = sentence[start..<stop].reversed().prefix { !$0.isWhitespace }
            let plainWord = word.count >= 2 && (word.allSatisfy { $0.isLetter || $0 == "-" } || word.allSatisfy(\.isNumber))
            guard plainWord, abbreviations[Substring(String(word.reversed()).lowercased() + ".")] == nil else { continue }
            ranges.append(start..<index)
            start = index
        }
        ranges.append(start..<sentence.endIndex)
        return ranges
    }

    /// Whether the sentence goes on after `sentence`: no space parts it from `next` (ICU ends one
    /// inside "1.[Crew"; only scripts written without spaces end one at "。"), it ends in an
    /// abbreviation that `next` follows as a name or number, or it is nothing but the
    /// paragraph's leading number ("1.", "2.3.", "a.", "iv.").
    private static func continues(_ sentence: Substring, with next: Substring, first: Bool) -> Bool {
        if let end = sentence.last, let start = next.first, !end.isWhitespace, !start.isWhitespace,
           !"。！？｡".contains(sentence.last { !"\"'’”)]」』）".contains($0) } ?? end) {
            return true
        }
        let words = sentence.split(whereSeparator: \.isWhitespace)
        guard let last = words.last else { return false }
        if let follower = abbreviations[Substring(last.drop { !$0.isLetter }.lowercased())] { return follower.begins(next) }
        guard first, words.count == 1, last.hasSuffix("."), last.count <= 6 else { return false }
        let marker = last.dropLast()
        return marker.allSatisfy { $0.isNumber || $0 == "." } || (marker.count == 1 && marker.allSatisfy(\.isLetter))
            || marker.allSatisfy { "ivxlIVXL".contains($0) }
    }

    /// Line feed, carriage return, vertical tab, form feed, next line, line and paragraph separators.
    private static func isLineBreak(_ unit: UInt16) -> Bool {
        (0x0A...0x0D).contains(unit) || unit == 0x85 || unit == 0x2028 || unit == 0x2029
    }
}
