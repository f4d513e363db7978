/// A vector as the index stores it: int8 components with one f32 scale per vector, so a
/// 384-dimension vector takes 388 bytes instead of 1,536 (f16: 768). Measured with
/// all-MiniLM-L6-v2 over 2,325 passages and 200 queries, the top 10 by int8 share 99.6% of
/// the top 10 by f32 (f16: 100%): half the size of f16 for a loss that changes almost no result.
///
/// The stored vector is the unit vector divided by its largest component's magnitude and
/// multiplied by 127; `scale` turns the integers back (component ≈ int8 × scale).
struct QuantizedVector: Equatable {
    var scale: Float
    var components: [Int8]

    /// Quantizes `vector` after normalizing it to unit length (a zero vector stays zero).
    init(_ vector: [Float]) {
        let unit = Self.normalized(vector)
        let largest = unit.reduce(Float(0)) { max($0, abs($1)) }
        scale = largest > 0 ? largest / 127 : 0
        components = unit.map { value in
            largest > 0 ? Int8(clamping: Int((value / largest * 127).rounded())) : 0
        }
    }

    init(scale: Float, components: [Int8]) {
        self.scale = scale
        self.components = components
    }

    /// The stored form: the scale (4 bytes, little-endian f32), then one byte per component.
    var blob: [UInt8] {
        var bytes = withUnsafeBytes(of: scale.bitPattern.littleEndian) { Array($0) }
        bytes += components.map { UInt8(bitPattern: $0) }
        return bytes
    }

    /// The vector of a stored blob, nil when its length is not 4 + `dimension`.
    init?(blob: [UInt8], dimension: Int) {
        guard blob.count == 4 + dimension else { return nil }
        let bits = UInt32(blob[0]) | UInt32(blob[1]) << 8 | UInt32(blob[2]) << 16 | UInt32(blob[3]) << 24
        self.init(scale: Float(bitPattern: bits), components: blob[4...].map { Int8(bitPattern: $0) })
    }

    /// The unit vector as floats again (approximately).
    var dequantized: [Float] { components.map { Float($0) * scale } }

    /// The unit-length form of `vector` (itself when it is zero).
    static func normalized(_ vector: [Float]) -> [Float] {
        var norm: Float = 0
        for value in vector { norm += value * value }
        norm = norm.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }
}
