import Sentences

/// Cuts a snippet out of a passage around the query's words. Words are compared as the index's
/// tokenizer reads them (lowercased, diacritics removed, stemmed), so the snippet shows the
/// words FTS5 matched: "boiler pressure" finds "the boilers lost pressure".
///
/// The window of at most `length` bytes holding the most distinct query words wins (then the
/// most occurrences, then the earliest). It begins at the start of its first match's sentence
/// (`SentenceSplitter`) when that is at most a quarter of the window before the match, else at a
/// word a little before it, and ends at the window's last word; "…" marks each end that cuts a
/// sentence, so the match's sentence reads from its start and a quote of it is a sentence.
struct SnippetMaker {
    /// The query's words with their stems, in query order.
    let words: [(word: String, stem: String)]
    let length: Int

    /// The snippet of `text` (whose tokens are `tokens`) and the query words it holds.
    func snippet(of text: String, tokens: [TextToken]) -> (snippet: String, matchedWords: [String]) {
        let bytes = Array(text.utf8)
        let stems = Set(words.map(\.stem))
        let hits = tokens.indices.filter { stems.contains(tokens[$0].stem) }
        let present = Set(hits.map { tokens[$0].stem })
        let matched = words.filter { present.contains($0.stem) }.map(\.word).uniquedInOrder
        guard bytes.count > length else { return (text, matched) }
        var best = (first: hits.first ?? 0, distinct: 0, count: 0)
        for (position, first) in hits.enumerated() {
            let limit = tokens[first].bytes.lowerBound + length * 3 / 4
            let inside = hits[position...].prefix { tokens[$0].bytes.upperBound <= limit }
            let distinct = Set(inside.map { tokens[$0].stem }).count
            if distinct > best.distinct || (distinct == best.distinct && inside.count > best.count) {
                best = (first, distinct, inside.count)
            }
        }
        // At most a quarter of the window goes before the first match: from the start of the
        // match's sentence when that is within it, else from a token.
        let lead = hits.isEmpty ? 0 : tokens[best.first].bytes.lowerBound
        let sentences = SentenceSplitter.sentenceRanges(in: text).map {
            text.utf8.distance(from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(from: text.startIndex, to: $0.upperBound)
        }
        let first = tokens.firstIndex { lead - $0.bytes.lowerBound <= length / 4 } ?? 0
        let tokenStart = first == 0 ? 0 : tokens[first].bytes.lowerBound
        let sentenceStart = sentences.last { $0.lowerBound <= lead }?.lowerBound
        let start = sentenceStart.map { $0 >= tokenStart ? $0 : tokenStart } ?? tokenStart
        // It ends at the window's last token, with the sentence's closing punctuation when that
        // fits: the whole window is shown (ending at the last sentence end instead dropped up to
        // half of it, and with it facts the answers quoted).
        let window = start + length
        var end = tokens.last { $0.bytes.upperBound <= window }?.bytes.upperBound ?? min(bytes.count, window)
        if let closing = sentences.first(where: { $0.upperBound >= end && $0.lowerBound < end })?.upperBound, closing <= window {
            end = closing
        }
        while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let body = String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
        let cutBefore = start > 0 && sentenceStart != start, cutAfter = end < bytes.count && !sentences.contains { $0.upperBound == end }
        return ((cutBefore ? "…" : "") + body + (cutAfter ? "…" : ""), matched)
    }
}

private extension Array where Element: Hashable {
    var uniquedInOrder: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
