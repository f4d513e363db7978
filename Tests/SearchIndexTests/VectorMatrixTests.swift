import Testing
@testable import SearchIndex

/// The exact scan against a plain float one written here: large enough that it runs in parts
/// (one per core), with items whose pieces straddle the parts' boundaries.
@Suite struct VectorMatrixTests {
    /// A seeded generator, so a failure can be run again.
    struct Numbers {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24) * 2 - 1
        }
        mutating func vector(_ dimension: Int) -> [Float] { (0..<dimension).map { _ in next() } }
    }

    static let dimension = 40

    /// 70,000 items of 1 to 3 pieces each (about 140,000 rows), and every row's vector as stored.
    static func matrix() -> (VectorMatrix, rows: [(item: Int64, vector: [Float])]) {
        var numbers = Numbers(state: 7)
        var matrix = VectorMatrix(dimension: dimension)
        var rows: [(item: Int64, vector: [Float])] = []
        for item in 1...Int64(70_000) {
            for piece in 0..<(1 + Int(item % 3)) {
                let stored = QuantizedVector(numbers.vector(dimension))
                matrix.append(item: item, passage: 0, sentence: piece, stored)
                rows.append((item, stored.dequantized))
            }
        }
        return (matrix, rows)
    }

    /// Each item's best cosine with `query` over its stored vectors, best first.
    static func expected(_ rows: [(item: Int64, vector: [Float])], query: [Float], allowed: Set<Int64>? = nil) -> [(item: Int64, score: Float)] {
        let unit = QuantizedVector.normalized(query)
        var best: [Int64: Float] = [:]
        for row in rows where allowed?.contains(row.item) ?? true {
            let score = zip(unit, row.vector).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            best[row.item] = max(best[row.item] ?? -.infinity, score)
        }
        return best.map { (item: $0.key, score: $0.value) }.sorted { $0.score > $1.score }
    }

    @Test func theScanFindsWhatAPlainFloatScanFinds() {
        let (matrix, rows) = Self.matrix()
        var numbers = Numbers(state: 99)
        for _ in 0..<3 {
            let query = numbers.vector(Self.dimension)
            let found = matrix.nearest(to: query, limit: 25, allowed: nil)
            let expected = Self.expected(rows, query: query)
            #expect(found.count == 25)
            #expect(Set(found.map(\.item)).count == found.count, "an item appears once")
            #expect(zip(found, found.dropFirst()).allSatisfy { $0.score >= $1.score }, "best first")
            let bestOf = Dictionary(uniqueKeysWithValues: expected.map { ($0.item, $0.score) })
            // the int8 rows and the integer query round; ranks may swap only within that
            for (rank, match) in found.enumerated() {
                #expect(abs(match.score - expected[rank].score) < 0.005, "rank \(rank)")
                #expect(abs(match.score - (bestOf[match.item] ?? 9)) < 0.005, "item \(match.item)'s score is its best piece's")
            }
        }
    }

    /// Every item once, with its best piece: an item split between two parts would appear
    /// twice, or with the best of only some of its pieces.
    @Test func asManyAsThereAreItemsGivesEachOnceWithItsBestPiece() {
        let (matrix, rows) = Self.matrix()
        var numbers = Numbers(state: 11)
        let query = numbers.vector(Self.dimension)
        let found = matrix.nearest(to: query, limit: 80_000, allowed: nil)
        let bestOf = Dictionary(uniqueKeysWithValues: Self.expected(rows, query: query).map { ($0.item, $0.score) })
        #expect(found.count == 70_000)
        #expect(Set(found.map(\.item)).count == 70_000)
        #expect(found.allSatisfy { abs($0.score - (bestOf[$0.item] ?? 9)) < 0.005 })
    }

    @Test func onlyAllowedItemsAppear() {
        let (matrix, rows) = Self.matrix()
        let allowed = Set(stride(from: Int64(5), through: 70_000, by: 97))
        var numbers = Numbers(state: 3)
        let query = numbers.vector(Self.dimension)
        let found = matrix.nearest(to: query, limit: 10, allowed: allowed)
        #expect(found.count == 10)
        #expect(found.allSatisfy { allowed.contains($0.item) })
        let expected = Self.expected(rows, query: query, allowed: allowed)
        for (rank, match) in found.enumerated() { #expect(abs(match.score - expected[rank].score) < 0.005) }
    }

    /// The vector-instruction kernel (where the CPU has AVX2) against the plain loop, on
    /// dimensions with and without a remainder after the 16-component steps.
    @Test(arguments: [40, 384])
    func theVectorKernelComputesWhatThePlainLoopDoes(dimension: Int) {
        var numbers = Numbers(state: UInt64(dimension))
        let query = (0..<dimension).map { _ in Int16(numbers.next() * 32_000) }
        let components = (0..<(dimension * 1_000)).map { _ in Int8(numbers.next() * 127) }
        var fast = [Int32](repeating: 0, count: 990), plain = [Int32](repeating: 0, count: 990)
        Int8DotProducts.compute(query, components, rows: 10..<1_000, into: &fast)
        Int8DotProducts.compute(query, components, rows: 10..<1_000, into: &plain, portable: true)
        #expect(fast == plain)
        let first = zip(query, components[(10 * dimension)...]).reduce(Int32(0)) { $0 + Int32($1.0) * Int32($1.1) }
        #expect(fast[0] == first)
    }

    @Test func equalScoresRankByItem() {
        var matrix = VectorMatrix(dimension: 4)
        for item in Int64(1)...5 { matrix.append(item: 6 - item, passage: 0, sentence: nil, QuantizedVector([1, 0, 0, 0])) }
        #expect(matrix.nearest(to: [1, 0, 0, 0], limit: 3, allowed: nil).map(\.item) == [1, 2, 3])
    }
}
