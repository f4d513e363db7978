import Foundation

/// Reads passages on one (reader) connection: the best passage of each search result and its
/// snippet, one place in an item, and a search over passages themselves.
///
/// An item with stored passages (`passages`, `passage_fts`) ranks them with one FTS5 lookup
/// bounded to its rowid range; an item without is one passage, its whole text. Passage text is
/// cut out of the item's stored text, which both kinds share.
struct PassageReader {
    let database: SQLiteDatabase
    let hideExpiredAt: Date?

    /// The words a query's full-text parts and textContent patterns look for, in order, once each.
    static func words(of predicate: QueryPredicate) -> [String] {
        var words: [String] = []
        func collect(_ predicate: QueryPredicate) {
            switch predicate {
            case let .fullText(text, _): words += QueryCompiler.fullTextWords(text)
            case let .match(attribute, pattern, _, _) where attribute == .textContent:
                words += TextContentMatch.candidateWords(pattern)
            case .and(let parts), .or(let parts): parts.forEach(collect)
            default: break
            }
        }
        collect(predicate)
        var seen = Set<String>()
        return words.filter { seen.insert($0.lowercased()).inserted }
    }

    /// For each identifier whose item has text, its passage that best matches `words` and a
    /// snippet of at most `snippetLength` bytes around them.
    func matches(identifiers: [String], words: [String], snippetLength: Int) throws(SearchIndexError) -> [String: PassageMatch] {
        guard !words.isEmpty else { return [:] }
        let snippets = SnippetMaker(words: words.compactMap { word in database.tokens(of: word).first.map { (word, $0.stem) } },
                                    length: snippetLength)
        var matches: [String: PassageMatch] = [:]
        for item in try texts(identifiers: identifiers) {
            guard let passage = try bestPassage(of: item, words: words) else { continue }
            let (snippet, matched) = snippets.snippet(of: passage.text, tokens: database.tokens(of: passage.text))
            matches[item.identifier] = PassageMatch(passage: passage, snippet: snippet, matchedWords: matched)
        }
        return matches
    }

    /// One place of an item: a passage, a page, or the passage best matching some words; nil
    /// when there is no such item or it has no text. Throws `passageNotFound` for a place the item does not have.
    func passage(of identifier: String, at place: PassagePlace) throws(SearchIndexError) -> Passage? {
        guard let item = try texts(identifiers: [identifier]).first else { return nil }
        let spans = try self.spans(of: item)
        func notFound(_ place: String) -> SearchIndexError {
            .passageNotFound(identifier: identifier, place: place, passageCount: spans.count,
                             pageCount: spans.compactMap(\.location.page).max())
        }
        switch place {
        case .passage(let index):
            guard spans.indices.contains(index) else { throw notFound("passage \(index)") }
            return passage(item, spans, index)
        case .page(let page):
            let onPage = spans.indices.filter { spans[$0].location.page == page }
            guard let first = onPage.first, let last = onPage.last else { throw notFound("page \(page)") }
            let window = PassageSpan(start: spans[first].start, length: spans[last].end - spans[first].start,
                                     location: PassageLocation(page: page, lines: spans[first].location.lines.lowerBound...spans[last].location.lines.upperBound,
                                                               headingPath: spans[first].location.headingPath))
            return Passage(itemIdentifier: identifier, index: first, count: spans.count, location: window.location,
                           text: item.slice(window.start..<window.end))
        case .matching(let text):
            return try bestPassage(of: item, words: QueryCompiler.fullTextWords(text), spans: spans)
        }
    }

    /// The passages holding every word of `text`, best first (BM25 over passages), at most `limit`.
    /// Items that are one passage are found by item search, not here.
    func passages(matching text: String, limit: Int) throws(SearchIndexError) -> [(passage: Passage, score: Double)] {
        guard let expression = QueryCompiler.ftsExpression(text, prefix: false, column: nil) else { return [] }
        let condition = QueryCompiler.hidingExpired("1", at: hideExpiredAt)
        let ranked = try database.query("""
            SELECT f.rowid, f.rank, i.identifier FROM passage_fts f JOIN items i ON i.rowid = (f.rowid >> \(IndexSchema.passageIndexBits)) \
            WHERE f.passage_fts MATCH \(expression) AND \(condition) ORDER BY +f.rank, f.rowid LIMIT \(max(0, limit))
            """) { (rowid: $0.integer(0), score: -$0.double(1), identifier: $0.text(2) ?? "") }
        let items = Dictionary(try texts(identifiers: Array(Set(ranked.map(\.identifier)))).map { ($0.identifier, $0) },
                               uniquingKeysWith: { first, _ in first })
        var spansByItem: [String: [PassageSpan]] = [:]
        var result: [(passage: Passage, score: Double)] = []
        for hit in ranked {
            guard let item = items[hit.identifier] else { continue }
            let spans: [PassageSpan]
            if let known = spansByItem[hit.identifier] { spans = known } else { spans = try self.spans(of: item) }
            spansByItem[hit.identifier] = spans
            let index = Int(hit.rowid & Int64(IndexSchema.passagesPerItem - 1))
            guard spans.indices.contains(index) else { continue }
            result.append((passage(item, spans, index), hit.score))
        }
        return result
    }

    // MARK: Stored text

    /// An item's identifier, rowid, content type and stored body.
    struct ItemText {
        var identifier: String, rowid: Int64, contentType: String?, body: [UInt8]

        func slice(_ bytes: Range<Int>) -> String {
            String(decoding: body[bytes.clamped(to: 0..<body.count)], as: UTF8.self)
        }
    }

    /// The stored bodies of the items with these identifiers that have text; corrupt rows are
    /// left out (fetch reports them).
    private func texts(identifiers: [String]) throws(SearchIndexError) -> [ItemText] {
        guard !identifiers.isEmpty else { return [] }
        let condition = QueryCompiler.hidingExpired("i.identifier IN (\(values: identifiers.map(SQLiteValue.text), separator: ","))", at: hideExpiredAt)
        let rows = try database.query("""
            SELECT i.identifier, i.rowid, i.contentType, t.data FROM items i JOIN item_text t ON t.rowid = i.rowid \
            WHERE \(condition) AND i.textLength IS NOT NULL
            """) { row in (row.text(0) ?? "", row.integer(1), row.text(2), row.blob(3)) }
        return rows.compactMap { identifier, rowid, contentType, blob in
            // Stored text: title, NUL, other text, NUL, body (see `ItemStore`).
            guard let blob, let text = TextCompression.decodedBytes(blob), let first = text.firstIndex(of: 0),
                  let second = text[(first + 1)...].firstIndex(of: 0) else { return nil }
            return ItemText(identifier: identifier, rowid: rowid, contentType: contentType, body: Array(text[(second + 1)...]))
        }
    }

    /// An item's passages: its stored ones, or the one its short text is.
    private func spans(of item: ItemText) throws(SearchIndexError) -> [PassageSpan] {
        let stored = try storedSpans(of: item.rowid, IndexSchema.passageRowids(item: item.rowid))
        if !stored.isEmpty { return stored }
        return PassageSplitter.spans(of: String(decoding: item.body, as: UTF8.self), markdown: PassageSplitter.isMarkdown(item.contentType))
    }

    /// The stored passages of an item with rowids in `range`, in order.
    private func storedSpans(of item: Int64, _ range: (first: Int64, last: Int64)) throws(SearchIndexError) -> [PassageSpan] {
        try database.query("""
            SELECT start, length, page, firstLine, lastLine, heading FROM passages WHERE rowid BETWEEN \(range.first) AND \(range.last) ORDER BY rowid
            """) { row in
            PassageSpan(start: Int(row.integer(0)), length: Int(row.integer(1)),
                        location: PassageLocation(page: row.isNull(2) ? nil : Int(row.integer(2)),
                                                  lines: Int(row.integer(3))...max(Int(row.integer(3)), Int(row.integer(4))),
                                                  headingPath: (row.text(5) ?? "").split(separator: IndexSchema.listSeparator).map(String.init)))
        }
    }

    private func passage(_ item: ItemText, _ spans: [PassageSpan], _ index: Int) -> Passage {
        Passage(itemIdentifier: item.identifier, index: index, count: spans.count, location: spans[index].location,
                text: item.slice(spans[index].start..<spans[index].end))
    }

    /// The item's passage holding the most distinct words of `words`, then the most of them
    /// (`lantern_match_score`; the first passage when none holds any); nil for text without a
    /// visible character. Not BM25: inside one item the collection statistics change nothing
    /// worth their cost, a pass over each word's whole list of passages per item. Only the
    /// winning passage's row is read when the item's passages are not already known.
    private func bestPassage(of item: ItemText, words: [String], spans known: [PassageSpan]? = nil) throws(SearchIndexError) -> Passage? {
        if let known, known.count <= 1 || words.isEmpty { return known.isEmpty ? nil : passage(item, known, 0) }
        let (first, last) = IndexSchema.passageRowids(item: item.rowid)
        let best = words.isEmpty ? nil : try database.query("""
            SELECT rowid FROM passage_fts WHERE passage_fts MATCH \(words.map(QueryCompiler.phrase).joined(separator: " OR ")) \
            AND rowid BETWEEN \(first) AND \(last) ORDER BY lantern_match_score(passage_fts) DESC, rowid LIMIT 1
            """) { $0.integer(0) }.first
        if let known {
            let index = best.map { Int($0 - first) } ?? 0
            return passage(item, known, known.indices.contains(index) ? index : 0)
        }
        if let best, let span = try storedSpans(of: item.rowid, (best, best)).first,
           let lastStored = try database.query("SELECT max(rowid) FROM passages WHERE rowid BETWEEN \(first) AND \(last)", { $0.integer(0) }).first {
            return Passage(itemIdentifier: item.identifier, index: Int(best - first), count: Int(lastStored - first) + 1,
                           location: span.location, text: item.slice(span.start..<span.end))
        }
        let spans = try spans(of: item)
        return spans.isEmpty ? nil : passage(item, spans, 0)
    }
}
