import Foundation
import Synchronization

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
    /// How many items have rows (an item's rows are adjacent).
    private(set) var itemCount = 0

    /// Appends one stored vector of an item's passage (an item's rows must be adjacent).
    mutating func append(item: Int64, passage: Int, sentence: Int?, _ vector: QuantizedVector) {
        if items.last != item { itemCount += 1 }
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

        /// Higher score first, equal scores by item rowid.
        static func ranksBefore(_ a: Match, _ b: Match) -> Bool {
            a.score != b.score ? a.score > b.score : a.item < b.item
        }
    }

    /// The `limit` items whose best passage is most similar (cosine) to `query`, best first
    /// (equal scores by item rowid); `allowed`, when set, holds the only items that may appear.
    ///
    /// Large matrices are scanned in one part per core, each part keeping only its best
    /// `limit` items (sorting every item's best would cost as much as the dot products).
    func nearest(to query: [Float], limit: Int, allowed: Set<Int64>?) -> [Match] {
        guard limit > 0, query.count == dimension, !items.isEmpty else { return [] }
        // The query as 16-bit integers: exact integer dot products with the int8 rows
        // (`Int8DotProducts`), with no loss that ranks differ by (16 bits against the rows'
        // 8). The query's largest component is scaled so that a whole row's sum fits an Int32
        // (32,767 for up to 516 dimensions).
        let unit = QuantizedVector.normalized(query)
        let peak = unit.map(abs).max() ?? 0
        let largest = Float(min(Int(Int16.max), Int(Int32.max) / (max(1, dimension) * Int(Int8.max))))
        let factor: Float = peak > 0 ? largest / peak : 0
        let scaled = unit.map { Int16(($0 * factor).rounded()) }
        let parts = partRanges()
        let found = Mutex([[Match]](repeating: [], count: parts.count))
        DispatchQueue.concurrentPerform(iterations: parts.count) { part in
            let best = nearest(in: parts[part], to: scaled, factor: factor, limit: limit, allowed: allowed)
            found.withLock { $0[part] = best }
        }
        return Array(found.withLock { $0 }.joined().sorted(by: Match.ranksBefore).prefix(limit))
    }

    /// Rows in one part per core (one part for a small matrix), split between items.
    private func partRanges() -> [Range<Int>] {
        let count = min(ProcessInfo.processInfo.activeProcessorCount, max(1, items.count / Self.rowsPerPart))
        var ranges: [Range<Int>] = []
        var start = 0
        for part in 1...count {
            var end = part == count ? items.count : max(start, items.count * part / count)
            while end < items.count, end > 0, items[end] == items[end - 1] { end += 1 }
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    /// Below this many rows a part's thread costs more than it saves.
    private static let rowsPerPart = 32_768

    /// The best `limit` items of `rows` (unsorted beyond that).
    private func nearest(in rows: Range<Int>, to query: [Int16], factor: Float, limit: Int, allowed: Set<Int64>?) -> [Match] {
        var kept: [Match] = []
        kept.reserveCapacity(2 * limit)
        var worstKept: Match?
        func offer(_ match: Match) {
            if let worst = worstKept, !Match.ranksBefore(match, worst) { return }
            kept.append(match)
            if kept.count == 2 * limit {
                kept.sort(by: Match.ranksBefore)
                kept.removeLast(limit)
                worstKept = kept.last
            }
        }
        // the item being read: its best row so far and that row's dot product
        var current: (row: Int, dot: Int32)?
        var dots = [Int32](repeating: 0, count: Self.rowsPerBlock)
        for block in stride(from: rows.lowerBound, to: rows.upperBound, by: Self.rowsPerBlock) {
            let blockRows = block..<min(block + Self.rowsPerBlock, rows.upperBound)
            Int8DotProducts.compute(query, components, rows: blockRows, into: &dots)
            for row in blockRows {
                let item = items[row]
                if let allowed, !allowed.contains(item) { continue }
                let dot = dots[row - block]
                if let open = current, items[open.row] == item {
                    if Float(dot) * scales[row] > Float(open.dot) * scales[open.row] { current = (row, dot) }
                } else {
                    if let open = current { offer(match(row: open.row, dot: open.dot, factor: factor)) }
                    current = (row, dot)
                }
            }
        }
        if let open = current { offer(match(row: open.row, dot: open.dot, factor: factor)) }
        return kept
    }

    /// Rows whose dot products are computed at once: their results stay in the cache.
    private static let rowsPerBlock = 4_096

    private func match(row: Int, dot: Int32, factor: Float) -> Match {
        Match(item: items[row], passage: Int(passages[row]), sentence: sentences[row] < 0 ? nil : Int(sentences[row]),
              score: factor > 0 ? Float(dot) / factor * scales[row] : 0)
    }
}
