/// Cuts a snippet out of a passage around the query's words. Words are compared as the index's
/// tokenizer reads them (lowercased, diacritics removed, stemmed), so the snippet shows the
/// words FTS5 matched: "boiler pressure" finds "the boilers lost pressure".
///
/// The window of at most `length` bytes holding the most distinct query words wins (then the
/// most occurrences, then the earliest); it begins a little before its first match so the
/// sentence reads, at a word boundary, and "…" marks each end that was cut.
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
        // A quarter of the window goes before the first match, starting at a token.
        let lead = hits.isEmpty ? 0 : tokens[best.first].bytes.lowerBound
        let first = tokens.firstIndex { lead - $0.bytes.lowerBound <= length / 4 } ?? 0
        let start = first == 0 ? 0 : tokens[first].bytes.lowerBound
        var end = tokens.last { $0.bytes.upperBound <= start + length }?.bytes.upperBound ?? min(bytes.count, start + length)
        while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let body = String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
        return ((start > 0 ? "…" : "") + body + (end < bytes.count ? "…" : ""), matched)
    }
}

private extension Array where Element: Hashable {
    var uniquedInOrder: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
