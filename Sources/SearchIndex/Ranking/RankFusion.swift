/// Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each ranking gives an item
/// 1 / (k + rank), rank counted from 1, and the sums order the fused list. It needs no
/// calibration between BM25 scores and cosines, which live on unrelated scales; k = 60 is the
/// paper's constant and what Elasticsearch, OpenSearch and most hybrid search engines use.
enum RankFusion {
    static let k: Double = 60

    /// Items of `rankings` (each best first, without repeats) by fused score, best first;
    /// equal sums by the earliest rank, then key.
    static func fuse<Key: Hashable & Comparable>(_ rankings: [[Key]]) -> [(key: Key, score: Double)] {
        var scores: [Key: (score: Double, bestRank: Int)] = [:]
        for ranking in rankings {
            for (position, rowid) in ranking.enumerated() {
                let previous = scores[rowid] ?? (0, Int.max)
                scores[rowid] = (previous.score + 1 / (k + Double(position + 1)), min(previous.bestRank, position))
            }
        }
        return scores.sorted { left, right in
            if left.value.score != right.value.score { return left.value.score > right.value.score }
            if left.value.bestRank != right.value.bestRank { return left.value.bestRank < right.value.bestRank }
            return left.key < right.key
        }.map { ($0.key, $0.value.score) }
    }
}
