import Foundation

/// One word's shortlist as `term_shortlists` stores it (built by CFullText on the writer): the
/// items that can rank in the word's top `depth` whatever the index's size and average length,
/// each with the word's weighted count in it and its length in words.
///
/// FTS5 has no top-k pruning, so an exact BM25 top 10 of a word held by a fifth of a million
/// items scores all two hundred thousand. Scoring the shortlist's few dozen members exactly as
/// FTS5's bm25() does (the same operations in the same order, so the same doubles) gives the
/// same top 10 in the same order, ties broken by rowid, at a tiny fraction of the cost (see the
/// common-word rows of Benchmarks/RESULTS.md).
struct TermShortlist {
    struct Member {
        var rowid: Int64, count: Double, length: Double
        /// How many other members dominate it (see CFullText.h).
        var dominators: Int
    }

    /// Every top N with N ≤ depth is inside the shortlist.
    var depth: Int
    /// The depth every shortlist keeps: a new one has `LANTERN_SHORTLIST_DEPTH`, each deleted
    /// member takes one off, and the writer rebuilds it from FTS5 before it falls below this.
    static let guaranteedDepth = WordRecorder.guaranteedShortlistDepth
    var members: [Member]

    /// Decodes the stored blob: depth (UInt32), then per member rowid (Int64), weighted count,
    /// length and dominator count (UInt32 each), in the machine's byte order.
    init?(_ data: [UInt8]) {
        guard data.count >= 4, (data.count - 4) % 20 == 0 else { return nil }
        let (depth, members) = data.withUnsafeBytes { bytes in
            let depth = bytes.loadUnaligned(as: UInt32.self)
            let members = stride(from: 4, to: bytes.count, by: 20).map { offset in
                Member(rowid: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self),
                       count: Double(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)),
                       length: Double(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)),
                       dominators: Int(bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self)))
            }
            return (Int(depth), members)
        }
        self.depth = depth
        self.members = members
    }

    /// Whether the shortlist holds the true top `n` of a word that `itemCount` items hold: when
    /// `n` is within its depth, or when every such item is a member.
    func covers(_ n: Int, itemCount: Int64) -> Bool {
        n <= depth || Int64(members.count) == itemCount
    }

    /// The members by BM25 score, best first (ties by rowid), with FTS5's scores: `itemCount`
    /// items hold the word, out of `rowCount` holding `totalLength` words in all.
    func ranked(itemCount: Int64, rowCount: Int64, totalLength: Int64) -> [(rowid: Int64, score: Double)] {
        // fts5_aux.c, fts5Bm25GetData and fts5Bm25Function, for one phrase.
        let k1 = 1.2, b = 0.75
        let averageLength = Double(totalLength) / Double(rowCount)
        var idf = log((Double(rowCount - itemCount) + 0.5) / (Double(itemCount) + 0.5))
        if idf <= 0 { idf = 1e-6 }
        let scored = members.map { member in
            let score = 0.0 + idf * ((member.count * (k1 + 1.0)) / (member.count + k1 * (1 - b + b * member.length / averageLength)))
            return (rowid: member.rowid, score: -(-1.0 * score))
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.rowid < $1.rowid }
    }
}
