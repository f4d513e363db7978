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
        // The query as 16-bit integers: integer dot products with the int8 rows vectorize
        // (a float sum's order may not change, so it does not), with no loss that ranks differ
        // by (16 bits against the rows' 8). The query's largest component is scaled so that a
        // whole row's sum fits an Int32 (32,767 for up to 516 dimensions).
        let unit = QuantizedVector.normalized(query)
        let peak = unit.map(abs).max() ?? 0
        let largest = Float(min(Int(Int16.max), Int(Int32.max) / (max(1, dimension) * Int(Int8.max))))
        let factor: Float = peak > 0 ? largest / peak : 0
        let scaled = unit.map { Int16(($0 * factor).rounded()) }
        var best: [Match] = []
        var current: Match?
        let wide = dimension - dimension % 16
        scaled.withUnsafeBufferPointer { q in
            components.withUnsafeBufferPointer { matrix in
                guard let queryBytes = UnsafeRawPointer(q.baseAddress), let rowBytes = UnsafeRawPointer(matrix.baseAddress) else { return }
                for row in items.indices {
                    let item = items[row]
                    if let allowed, !allowed.contains(item) { continue }
                    // 16 components at a time (5 times faster than one by one here), then the rest
                    let base = row * dimension
                    var lanes = SIMD16<Int32>()
                    for column in stride(from: 0, to: wide, by: 16) {
                        let query = SIMD16<Int32>(truncatingIfNeeded: queryBytes.loadUnaligned(fromByteOffset: column * 2, as: SIMD16<Int16>.self))
                        let stored = SIMD16<Int32>(truncatingIfNeeded: rowBytes.loadUnaligned(fromByteOffset: base + column, as: SIMD16<Int8>.self))
                        lanes &+= query &* stored
                    }
                    var dot = lanes.wrappedSum()
                    for column in wide..<dimension { dot &+= Int32(q[column]) &* Int32(matrix[base + column]) }
                    let match = Match(item: item, passage: Int(passages[row]), sentence: sentences[row] < 0 ? nil : Int(sentences[row]),
                                      score: factor > 0 ? Float(dot) / factor * scales[row] : 0)
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
