/// Every stored vector of an index in one contiguous int8 matrix, for exact top-k search by
/// meaning: one pass of dot products over all sentence pieces, keeping each item's best one
/// and the passage it is in.
///
/// Rows are in rowid order, so an item's pieces are adjacent (`IndexSchema.passageRowid`) and
/// its best one is found in the same pass. Loaded by `VectorMatrixCache`, once per reader
/// connection and again only after a write changed the vectors.
struct VectorMatrix {
    let dimension: Int
    private(set) var items: [Int64] = []
    private var passages: [Int32] = []
    /// Each row's number among its passage's sentence pieces; -1 for none.
    private var sentences: [Int32] = []
    private var scales: [Float] = []
    private var components: [Int8] = []

    init(dimension: Int) {
        self.dimension = dimension
    }

    var count: Int { items.count }

    /// Appends one stored vector of an item's passage (an item's rows must be adjacent).
    mutating func append(item: Int64, passage: Int, sentence: Int?, _ vector: QuantizedVector) {
        items.append(item)
        passages.append(Int32(clamping: passage))
        sentences.append(sentence.map { Int32(clamping: $0) } ?? -1)
        scales.append(vector.scale)
        components += vector.components
    }

    /// One item's best sentence piece for a query vector: its passage, and which of the
    /// passage's pieces it is (nil: the item's title and description).
    struct Match: Equatable {
        var item: Int64, passage: Int, sentence: Int?, score: Float
    }

    /// The `limit` items whose best passage is most similar (cosine) to `query`, best first
    /// (equal scores by item rowid); `allowed`, when set, holds the only items that may appear.
    func nearest(to query: [Float], limit: Int, allowed: Set<Int64>?) -> [Match] {
        guard limit > 0, query.count == dimension, !items.isEmpty else { return [] }
        let unit = QuantizedVector.normalized(query)
        var best: [Match] = []
        var current: Match?
        unit.withUnsafeBufferPointer { q in
            components.withUnsafeBufferPointer { matrix in
                for row in items.indices {
                    let item = items[row]
                    if let allowed, !allowed.contains(item) { continue }
                    var dot: Float = 0
                    let base = row * dimension
                    for column in 0..<dimension { dot += q[column] * Float(matrix[base + column]) }
                    let match = Match(item: item, passage: Int(passages[row]), sentence: sentences[row] < 0 ? nil : Int(sentences[row]),
                                      score: dot * scales[row])
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
