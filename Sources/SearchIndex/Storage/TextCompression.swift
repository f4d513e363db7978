/// A small LZ77 codec for stored `textContent`, in Swift because Foundation on Linux has no
/// compression API and the package takes no dependencies.
///
/// Stored form: one tag byte (0 = stored as is, 1 = compressed), then the payload. Text is
/// compressed only when that saves at least an eighth, so short or incompressible text costs one
/// byte (text under `minimumInput` bytes is not tried). Compressed payload: varint original length, then sequences of
/// (varint literal count, literals, varint match length, varint distance); match length 0 ends.
enum TextCompression {
    static func encode(_ text: String) -> [UInt8] {
        let input = Array(text.utf8)
        if input.count >= minimumInput, let compressed = compress(input), compressed.count < input.count - input.count / 8 {
            return [1] + compressed
        }
        return [0] + input
    }

    /// Nil when the bytes are not a valid encoding (a corrupt row).
    static func decode(_ stored: [UInt8]) -> String? {
        decodedBytes(stored).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The text's UTF-8 bytes, for readers that slice it (passages) without making a String of
    /// the whole; nil when the bytes are not a valid encoding.
    static func decodedBytes(_ stored: [UInt8]) -> [UInt8]? {
        guard let tag = stored.first else { return [] }
        switch tag {
        case 0: return Array(stored.dropFirst())
        case 1: return decompress(stored.dropFirst())
        default: return nil
        }
    }

    /// Shorter text is stored as is without trying: with no entropy coding, a few hundred bytes of
    /// prose rarely repeat enough 4-byte runs to save an eighth (measured on the benchmark's
    /// ~600-byte notes: four in five failed to, and the rest saved 14%), so trying costs more than
    /// it returns. Long documents, which repeat, are still compressed.
    static let minimumInput = 2_048

    private static let minimumMatch = 4
    private static let hashBits = 13

    private static func compress(_ input: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 2)
        appendVarint(input.count, to: &output)
        var table = [Int](repeating: -1, count: 1 << hashBits)
        var literalStart = 0
        var position = 0
        let end = input.count - minimumMatch
        input.withUnsafeBufferPointer { bytes in
            while position <= end {
                let word = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8
                    | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
                let hash = Int((word &* 2_654_435_761) >> (32 - UInt32(hashBits)))
                let candidate = table[hash]
                table[hash] = position
                if candidate >= 0, position - candidate < 65_536,
                   bytes[candidate] == bytes[position], bytes[candidate + 1] == bytes[position + 1],
                   bytes[candidate + 2] == bytes[position + 2], bytes[candidate + 3] == bytes[position + 3] {
                    var length = minimumMatch
                    while position + length < bytes.count, bytes[candidate + length] == bytes[position + length] {
                        length += 1
                    }
                    appendVarint(position - literalStart, to: &output)
                    output.append(contentsOf: bytes[literalStart..<position])
                    appendVarint(length, to: &output)
                    appendVarint(position - candidate, to: &output)
                    position += length
                    literalStart = position
                } else {
                    position += 1
                }
            }
        }
        appendVarint(input.count - literalStart, to: &output)
        output.append(contentsOf: input[literalStart...])
        appendVarint(0, to: &output)
        return output
    }

    /// Decodes into a buffer of the stated length, copying literals and non-overlapping matches
    /// in blocks (a match closer than its length repeats bytes it writes, so it goes byte by
    /// byte); nil at the first inconsistency.
    private static func decompress(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        var cursor = input.startIndex
        guard let total = readVarint(input, &cursor), total < 1 << 31 else { return nil }
        var complete = false
        let output = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            var written = 0
            defer { count = written }
            guard let base = buffer.baseAddress else { return complete = readVarint(input, &cursor) == 0 && readVarint(input, &cursor) == 0 }
            while true {
                guard let literals = readVarint(input, &cursor), literals <= input.endIndex - cursor, written + literals <= total else { return }
                input[cursor..<cursor + literals].withUnsafeBufferPointer { source in
                    if let from = source.baseAddress { (base + written).initialize(from: from, count: literals) }
                }
                cursor += literals
                written += literals
                guard let length = readVarint(input, &cursor) else { return }
                if length == 0 { return complete = written == total }
                guard let distance = readVarint(input, &cursor), distance > 0, distance <= written, written + length <= total else { return }
                let from = base + (written - distance)
                if distance >= length {
                    (base + written).initialize(from: from, count: length)
                } else {
                    for offset in 0..<length { (base + written + offset).initialize(to: from[offset]) }
                }
                written += length
            }
        }
        return complete ? output : nil
    }

    private static func appendVarint(_ value: Int, to output: inout [UInt8]) {
        var remaining = UInt(value)
        while remaining >= 0x80 {
            output.append(UInt8(remaining & 0x7F) | 0x80)
            remaining >>= 7
        }
        output.append(UInt8(remaining))
    }

    private static func readVarint(_ input: ArraySlice<UInt8>, _ cursor: inout Int) -> Int? {
        var value = 0, shift = 0
        while cursor < input.endIndex, shift < 63 {
            let byte = input[cursor]
            cursor += 1
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
