import Foundation

/// Cuts text into sentences as a person reads them: the one unit that passages, snippets, the
/// sentence vectors of search by meaning and quote candidates all share.
///
/// First into paragraphs: a line break ends one unless the text merely wrapped there (a PDF's
/// text from `pdftotext`, hard-wrapped Markdown, an HTML source's line breaks), so a sentence
/// wrapped over lines is one sentence, not two. A line wrapped when it does not end a sentence
/// and the next line continues it: both hold text, neither is a table row, the line is no
/// Markdown heading or field (`city: Yosemite Valley`), it does not end in a snippet's cut
/// (`…`), the next begins no block (a heading, a list item, a field), and the next begins in
/// lower case, with a digit or with punctuation, or the line ends in "," or ";", or the line was
/// as long as the text's longest lines (a wrap before a capitalised word). A blank line or a
/// page break (form feed) always ends a paragraph, so a heading is never glued to the sentence
/// after it.
///
/// Then each paragraph into sentences by ICU's sentence break iterator (`SentenceBoundaries`):
/// "e.g. the", "Mt. Tom", "3.5 km" and "v1.2.3" stay whole.
public enum SentenceSplitter {
    /// The sentences of `text`, in order, each with its whitespace runs read as one space
    /// (`VerbatimText`), so a sentence joined over lines is still verbatim source text where
    /// quotes are checked.
    public static func sentences(in text: String) -> [String] {
        sentenceRanges(in: text).map { VerbatimText.normalized(text[$0]) }
    }

    /// Where the sentences of `text` lie in it, in order, without the whitespace around them.
    public static func sentenceRanges(in text: String) -> [Range<String.Index>] {
        paragraphRanges(in: text).flatMap { paragraph in
            SentenceBoundaries.ranges(in: text[paragraph]).compactMap { trimmed(text[$0]) }
        }
    }

    /// A line this share of the longest line's length or longer is taken to fill the text's
    /// width, when it is at least `minimumWrapWidth` characters (in a short text, such as a
    /// result's title over its description, the longest line says nothing of a width).
    private static let fullWidth = 0.8
    private static let minimumWrapWidth = 50

    /// Where the paragraphs of `text` lie: each from its first line's start to its last line's
    /// end. A form feed is a line break of its own, so `pdftotext`'s "\n\f" between pages
    /// leaves an empty line there.
    static func paragraphRanges(in text: String) -> [Range<String.Index>] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let width = lines.map { $0.trimmingCharacters(in: .whitespaces).count }.max() ?? 0
        var paragraphs: [Range<String.Index>] = []
        var current: (range: Range<String.Index>, last: Substring)?
        for line in lines {
            if let open = current, continues(open.last, with: line, width: width) {
                current = (open.range.lowerBound..<line.endIndex, line)
                continue
            }
            if let open = current { paragraphs.append(open.range) }
            current = (line.startIndex..<line.endIndex, line)
        }
        if let open = current { paragraphs.append(open.range) }
        return paragraphs
    }

    /// Whether `next` continues `line`, which the text wrapped.
    private static func continues(_ line: Substring, with next: Substring, width: Int) -> Bool {
        let line = line.trimmingCharacters(in: .whitespaces), next = next.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty, let first = next.first, !line.hasPrefix("#"), !isField(line), !isNumberedHeading(line), !startsBlock(next),
              !isTableRow(line), !isTableRow(next),
              !endsSentence(line) else { return false }
        if first.isLowercase || first.isNumber || "([\"'‘“,;–—-".contains(first) || line.hasSuffix(",") || line.hasSuffix(";") { return true }
        return line.count >= minimumWrapWidth && Double(line.count) >= fullWidth * Double(width)
    }

    /// A line that ends a sentence, introduces what follows or was cut: its last character,
    /// closing quotes and brackets aside, is `.`, `!`, `?`, `:` or a snippet's `…`.
    private static func endsSentence(_ line: String) -> Bool {
        let end = line.reversed().first { !"\"'’”)]".contains($0) }
        return end.map { ".!?:…".contains($0) } ?? false
    }

    /// A Markdown heading (`#`) or quote (`>`), a list item (`-`, `*`, `+`, `•`, `1.`, `2)`,
    /// `a)`), a numbered heading (`1.1 Tool safety`, a capital after the number) or a field: a
    /// line that begins a block of its own. A line that begins with a plain number ("8 percent
    /// keeps water…") continues a sentence.
    private static func startsBlock(_ line: String) -> Bool {
        if line.hasPrefix("#") || line.hasPrefix(">") || isField(line) { return true }
        let words = line.split(separator: " ", maxSplits: 1)
        guard words.count == 2, let marker = words.first, let last = marker.last else { return false }
        if marker.count == 1 { return "-*+•–".contains(last) }
        let body = last == "." || last == ")" ? marker.dropLast() : marker
        if last == ")", body.count == 1, body.allSatisfy(\.isLetter) { return true }
        guard body.first?.isNumber == true, body.allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
        return body.count < marker.count || isNumberedHeading(line)
    }

    /// A numbered heading: a number with a dot inside and a capital after it ("1.4 Drain dips",
    /// not "1.4 bar, rising…"), a line of its own.
    private static func isNumberedHeading(_ line: String) -> Bool {
        let words = line.split(separator: " ", maxSplits: 1)
        guard words.count == 2, let number = words.first, number.first?.isNumber == true, number.last?.isNumber == true,
              number.contains("."), number.allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
        return words[1].first?.isUppercase == true
    }

    /// A field, as a fetched item lists its attributes (`city: Yosemite Valley`,
    /// `distanceKilometers: 5.4`): a key in lower camel or snake case, a colon, its value. A
    /// line of its own, neither wrapped into nor onto, so a header after it ("text (passage 0
    /// of 1):") does not take it along; a capitalised label ("Note: …") is prose.
    private static func isField(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":"), line[line.index(after: colon)...].first == " " else { return false }
        let key = line[..<colon]
        return key.count >= 2 && key.first?.isLowercase == true && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// A row of a table: cells split by `|` or tabs, or columns set apart by runs of spaces
    /// (`pdftotext -layout`).
    private static func isTableRow(_ line: String) -> Bool {
        line.contains("|") || line.contains("\t") || line.contains("   ")
    }

    /// `text` without the whitespace at either end; nil when nothing else is left.
    private static func trimmed(_ text: Substring) -> Range<String.Index>? {
        guard let first = text.firstIndex(where: { !VerbatimText.isWhitespace($0) }),
              let last = text.lastIndex(where: { !VerbatimText.isWhitespace($0) }) else { return nil }
        return first..<text.index(after: last)
    }
}
