import Foundation

/// What checking an index's word shortlists against its full-text index found
/// (`SearchableIndex.checkShortlists()`): for every word FTS5 holds, the stored item count must be
/// FTS5's, and the stored shortlist must hold exactly the items that can rank in the word's top
/// `depth` (with FTS5's counts and lengths), so one-word searches rank and count as FTS5 would.
public struct ShortlistCheck: Sendable, Hashable {
    /// One word whose stored shortlist disagrees with the full-text index.
    public struct Disagreement: Sendable, Hashable, CustomStringConvertible {
        /// The word as indexed (lowercased and stemmed: "lakes" is stored as "lake").
        public var word: String
        /// The item count its shortlist states (0 when it has none).
        public var storedItemCount: Int
        /// How many items FTS5 finds holding it.
        public var fullTextItemCount: Int
        /// What is wrong, in words.
        public var problem: String

        public var description: String { "\"\(word)\": \(problem)" }
    }

    /// Words checked (every word FTS5 holds, and every shortlist of a word it does not).
    public var wordCount: Int
    /// Items in the index.
    public var itemCount: Int
    public var disagreements: [Disagreement]

    public var isSound: Bool { disagreements.isEmpty }
}

extension ShortlistCheck {
    /// Checks every word, in the caller's transaction (on the writer: rebuilding a shortlist
    /// needs its `lantern_term_shape`).
    static func run(on database: SQLiteDatabase) throws(SearchIndexError) -> ShortlistCheck {
        try database.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.lantern_vocabulary USING fts5vocab(main, 'fts', 'row');")
        let itemCount = Int(try database.query("SELECT count(*) FROM items") { $0.integer(0) }.first ?? 0)
        var wordCount = 0
        var disagreements: [Disagreement] = []
        // Row by row (each word's rebuild runs while the scan is open), so a large vocabulary's
        // shortlists are never all in memory at once.
        _ = try database.query("""
            SELECT v.term, v.doc, s.count, s.data FROM temp.lantern_vocabulary v LEFT JOIN term_shortlists s ON s.term = v.term
            """) { (row) throws(SearchIndexError) in
            wordCount += 1
            let word = row.text(0) ?? "", held = row.integer(1), stored = row.isNull(2) ? nil : row.integer(2)
            func disagree(_ problem: String) {
                disagreements.append(Disagreement(word: word, storedItemCount: Int(stored ?? 0), fullTextItemCount: Int(held), problem: problem))
            }
            guard let stored else { return disagree("\(held) items hold it, and it has no shortlist") }
            guard stored == held else { return disagree("its shortlist says \(stored) items, the full-text index has \(held)") }
            guard let data = row.blob(3), let shortlist = TermShortlist(data) else { return disagree("its shortlist is damaged") }
            guard let (rebuilt, _) = try ItemStore.rebuiltShortlist(of: word, in: database), let fresh = TermShortlist(rebuilt) else { return }
            let problem = try Self.problem(stored: shortlist, fresh: fresh) { (rowid) throws(SearchIndexError) in
                try database.query("""
                    SELECT lantern_term_shape(fts) FROM fts WHERE fts MATCH \(QueryCompiler.phrase(word)) AND rowid = \(rowid)
                    """) { $0.integer(0) }.first.map { (count: Double($0 >> 32), length: Double($0 & 0xFFFF_FFFF)) }
            }
            if let problem { disagree(problem) }
        }
        let orphans = try database.query("""
            SELECT s.term, s.count FROM term_shortlists s WHERE NOT EXISTS (SELECT 1 FROM temp.lantern_vocabulary v WHERE v.term = s.term)
            """) { ($0.text(0) ?? "", $0.integer(1)) }
        for (word, stored) in orphans {
            wordCount += 1
            disagreements.append(Disagreement(word: word, storedItemCount: Int(stored), fullTextItemCount: 0,
                                              problem: "its shortlist says \(stored) items, and no item holds it"))
        }
        return ShortlistCheck(wordCount: wordCount, itemCount: itemCount, disagreements: disagreements)
    }

    /// Whether a stored shortlist of depth d ranks like one built afresh: every member it holds is
    /// an item FTS5 holds the word in, with FTS5's count and length, and it holds every item that
    /// fewer than d others dominate (the fresh build counts every item's dominators exactly).
    /// A stored shortlist may hold more than the fresh build (a member that could rank when it
    /// came stays when later items come to dominate it); `shapeOf` gives FTS5's count and length
    /// of the word in such an item, nil when the item does not hold it.
    private static func problem(stored: TermShortlist, fresh: TermShortlist,
                                shapeOf: (Int64) throws(SearchIndexError) -> (count: Double, length: Double)?) throws(SearchIndexError) -> String? {
        let current = Dictionary(fresh.members.map { ($0.rowid, (count: $0.count, length: $0.length)) }, uniquingKeysWith: { first, _ in first })
        for member in stored.members {
            var actual = current[member.rowid]
            if actual == nil { actual = try shapeOf(member.rowid) }
            guard let actual, actual.count == member.count, actual.length == member.length else {
                return "its shortlist holds item \(member.rowid) with a count or length the full-text index does not have"
            }
        }
        let kept = Set(stored.members.map(\.rowid))
        let missing = fresh.members.filter { $0.dominators < stored.depth && !kept.contains($0.rowid) }
        if let first = missing.first {
            return "its shortlist lacks item \(first.rowid)\(missing.count > 1 ? " and \(missing.count - 1) more" : ""), which can rank in its top \(stored.depth)"
        }
        return nil
    }

    /// Replaces the shortlist of each disagreeing word with one built from FTS5; a word that
    /// cannot be rebuilt that way (see `ItemStore.rebuiltShortlist`) gets FTS5's item count and an
    /// empty shortlist of depth 0, which one-word searches pass over for FTS5's own ranking.
    static func repair(_ disagreements: [Disagreement], on database: SQLiteDatabase) throws(SearchIndexError) {
        for disagreement in disagreements {
            let word = disagreement.word
            guard disagreement.fullTextItemCount > 0 else {
                try database.run("DELETE FROM term_shortlists WHERE term = \(word)")
                continue
            }
            let (shortlist, count) = try ItemStore.rebuiltShortlist(of: word, in: database)
                ?? ([0, 0, 0, 0], Int64(disagreement.fullTextItemCount))
            try database.run("INSERT OR REPLACE INTO term_shortlists(term, count, data) VALUES(\(word), \(count), \(SQLiteValue.blob(shortlist)))")
        }
    }
}
