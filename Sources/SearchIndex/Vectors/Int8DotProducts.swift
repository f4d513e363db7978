import CVectorScan

/// A query's dot products with rows of int8 vectors, through the C kernel (`CVectorScan`),
/// which uses the CPU's vector instructions where Swift's baseline build cannot.
enum Int8DotProducts {
    /// `dots[i]` = the dot product of `query` with row `rows.lowerBound + i` of `components`
    /// (rows of `query.count` components); `dots` must hold `rows.count` values. Each sum must
    /// fit an Int32, as `VectorMatrix` scales its query to ensure.
    static func compute(_ query: [Int16], _ components: [Int8], rows: Range<Int>, into dots: inout [Int32], portable: Bool = false) {
        let dimension = query.count
        precondition(dots.count >= rows.count && rows.upperBound * dimension <= components.count)
        query.withUnsafeBufferPointer { query in
            components.withUnsafeBufferPointer { components in
                dots.withUnsafeMutableBufferPointer { dots in
                    guard let query = query.baseAddress, let first = components.baseAddress, let out = dots.baseAddress else { return }
                    let kernel = portable ? lantern_int8_dots_portable : lantern_int8_dots
                    kernel(query, first + rows.lowerBound * dimension, dimension, rows.count, out)
                }
            }
        }
    }
}
