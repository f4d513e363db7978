/// Every stored vector of an index in one contiguous int8 matrix, for exact top-k search by
/// meaning: one pass of dot products over all passages, keeping each item's best passage.
///
/// Rows are in passage-rowid order, so an item's passages are adjacent (`IndexSchema.passageRowid`)
/// and its best one is found in the same pass. Loaded by `VectorMatrixCache`, once per reader
/// connection and again only after a write changed the vectors.
struct VectorMatrix {
    let dimension: Int
    private(set) var rowids: [Int64] = []
    private var scales: [Float] = []
    private var components: [Int8] = []

    init(dimension: Int) {
        self.dimension = dimension
    }

    var count: Int { rowids.count }

    /// Appends one stored vector (rows must come in rowid order).
    mutating func append(rowid: Int64, _ vector: QuantizedVector) {
        rowids.append(rowid)
        scales.append(vector.scale)
        components += vector.components
    }

    /// One item's best passage for a query vector.
    struct Match: Equatable {
        var item: Int64, passage: Int, score: Float
    }

    /// The `limit` items whose best passage is most similar (cosine) to `query`, best first
    /// (equal scores by item rowid); `allowed`, when set, holds the only items that may appear.
    func nearest(to query: [Float], limit: Int, allowed: Set<Int64>?) -> [Match] {
        guard limit > 0, query.count == dimension, !rowids.isEmpty else { return [] }
        let unit = QuantizedVector.normalized(query)
        var best: [Match] = []
        var current: Match?
        unit.withUnsafeBufferPointer { q in
            components.withUnsafeBufferPointer { matrix in
                for row in rowids.indices {
                    let item = rowids[row] >> Int64(IndexSchema.passageIndexBits)
                    if let allowed, !allowed.contains(item) { continue }
                    var dot: Float = 0
                    let base = row * dimension
                    for column in 0..<dimension { dot += q[column] * Float(matrix[base + column]) }
                    let match = Match(item: item, passage: Int(rowids[row] & Int64(IndexSchema.passagesPerItem - 1)), score: dot * scales[row])
                    if let open = current, open.item == item {
                        if match.score > open.score { current = match }
                    } else {
                        if let open = current { best.append(open) }
                        current = match
                    }
                }
            }
        }
        if let open = current { best.append(open) }
        best.sort { $0.score != $1.score ? $0.score > $1.score : $0.item < $1.item }
        return Array(best.prefix(limit))
    }
}
