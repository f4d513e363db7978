import Foundation

/// Writes GGUF files byte by byte, for tests that need headers no converter would produce
/// (a zero alignment, a dimension of 2^64 - 1) or a real model's header over other weights.
///
/// Layout (GGUF v3, little-endian): "GGUF", version u32, tensor count u64, metadata count u64,
/// the metadata (key string, type u32, value), the tensor table (name, dimension count u32,
/// dimensions u64..., ggml type u32, data offset u64), padding to the alignment, the data.
struct GGUFWriter {
    enum Value {
        case uint32(UInt32)
        case int32(Int32)
        case uint64(UInt64)
        case float32(Float)
        case bool(Bool)
        case string(String)
        /// An array of values of GGUF type `elementType`, written as they are (nested arrays
        /// are what a valid file never holds).
        case array(elementType: UInt32, [Value])

        var type: UInt32 {
            switch self {
            case .uint32: 4
            case .int32: 5
            case .uint64: 10
            case .float32: 6
            case .bool: 7
            case .string: 8
            case .array: 9
            }
        }
    }

    struct Tensor {
        var name: String
        var dimensions: [UInt64]
        /// ggml type: 0 = F32, 1 = F16, 2 = Q4_0.
        var type: UInt32 = 0
        var offset: UInt64 = 0
    }

    var metadata: [(key: String, value: Value)] = [("general.architecture", .string("llama"))]
    var tensors: [Tensor] = []
    /// Bytes of zeros written after the header's padding and `tensorData`.
    var dataSize = 0
    /// Tensor data written after the header's padding, as `appendTensor` lays it out.
    var tensorData = Data()
    /// The padding the writer uses (the file's own `general.alignment` may say otherwise).
    var padding = 32
    /// The GGUF version written after the magic (llama.cpp reads 2 and 3).
    var version: UInt32 = 3

    func data() -> Data {
        var out = Data("GGUF".utf8)
        Self.append(version, to: &out)
        Self.append(UInt64(tensors.count), to: &out)
        Self.append(UInt64(metadata.count), to: &out)
        for (key, value) in metadata {
            Self.append(key, to: &out)
            Self.append(value.type, to: &out)
            Self.append(value, to: &out)
        }
        for tensor in tensors {
            Self.append(tensor.name, to: &out)
            Self.append(UInt32(tensor.dimensions.count), to: &out)
            for dimension in tensor.dimensions { Self.append(dimension, to: &out) }
            Self.append(tensor.type, to: &out)
            Self.append(tensor.offset, to: &out)
        }
        if padding > 0, out.count % padding != 0 { out.append(Data(count: padding - out.count % padding)) }
        out.append(tensorData)
        out.append(Data(count: dataSize))
        return out
    }

    /// Adds an F32 tensor holding `values` (dimensions innermost first, as ggml counts them),
    /// its data aligned to the writer's padding.
    mutating func appendTensor(_ name: String, dimensions: [Int], values: [Float]) {
        let alignment = max(padding, 1)
        if tensorData.count % alignment != 0 { tensorData.append(Data(count: alignment - tensorData.count % alignment)) }
        tensors.append(Tensor(name: name, dimensions: dimensions.map(UInt64.init), type: 0, offset: UInt64(tensorData.count)))
        values.map { $0.bitPattern.littleEndian }.withUnsafeBytes { tensorData.append(contentsOf: $0) }
    }

    func write(to url: URL) throws { try data().write(to: url) }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func append(_ text: String, to out: inout Data) {
        append(UInt64(text.utf8.count), to: &out)
        out.append(contentsOf: Array(text.utf8))
    }

    private static func append(_ value: Value, to out: inout Data) {
        switch value {
        case .uint32(let number): append(number, to: &out)
        case .int32(let number): append(number, to: &out)
        case .uint64(let number): append(number, to: &out)
        case .float32(let number): append(number.bitPattern, to: &out)
        case .bool(let flag): append(UInt8(flag ? 1 : 0), to: &out)
        case .string(let text): append(text, to: &out)
        case .array(let elementType, let values):
            append(elementType, to: &out)
            append(UInt64(values.count), to: &out)
            for element in values { append(element, to: &out) }
        }
    }

    /// Metadata whose one key holds an array of an array of ... `depth` levels deep, written
    /// directly (a recursive `Value` that deep would overflow the test's own stack).
    static func nestedArrays(depth: Int) -> Data {
        var out = Data("GGUF".utf8)
        append(UInt32(3), to: &out)
        append(UInt64(0), to: &out)
        append(UInt64(1), to: &out)
        append("general.nested", to: &out)
        append(UInt32(9), to: &out)
        for _ in 0..<depth {
            append(UInt32(9), to: &out)
            append(UInt64(1), to: &out)
        }
        append(UInt32(4), to: &out)
        append(UInt64(0), to: &out)
        return out
    }
}

/// The tensor table of a GGUF file, read with the same layout the writer uses: enough for tests
/// that rewrite a real model's weights in place.
struct GGUFTensorTable {
    struct Entry {
        var name: String
        var dimensions: [UInt64]
        var type: UInt32
        /// From the start of the data section.
        var offset: Int
    }

    var entries: [Entry] = []

    /// Reads the table of `data`, a well-formed GGUF file (a test fixture, so a malformed one is
    /// a failed test: the reader throws).
    init(_ data: Data) throws {
        var cursor = 8  // magic, version
        func read<T: FixedWidthInteger>(_: T.Type) throws -> T {
            guard cursor + MemoryLayout<T>.size <= data.count else { throw CocoaError(.fileReadCorruptFile) }
            defer { cursor += MemoryLayout<T>.size }
            return data.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: cursor, as: T.self)) }
        }
        func string() throws -> String {
            let length = Int(try read(UInt64.self))
            guard cursor + length <= data.count else { throw CocoaError(.fileReadCorruptFile) }
            defer { cursor += length }
            return String(decoding: data[data.startIndex + cursor..<data.startIndex + cursor + length], as: UTF8.self)
        }
        func skipValue(_ type: UInt32) throws {
            switch type {
            case 0, 1, 7: cursor += 1
            case 2, 3: cursor += 2
            case 4, 5, 6: cursor += 4
            case 10, 11, 12: cursor += 8
            case 8: _ = try string()
            case 9:
                let elementType = try read(UInt32.self)
                for _ in 0..<(try read(UInt64.self)) { try skipValue(elementType) }
            default: throw CocoaError(.fileReadCorruptFile)
            }
        }
        let tensorCount = try read(UInt64.self)
        let keyCount = try read(UInt64.self)
        for _ in 0..<keyCount {
            _ = try string()
            try skipValue(try read(UInt32.self))
        }
        for _ in 0..<tensorCount {
            let name = try string()
            let dimensions = try (0..<(try read(UInt32.self))).map { _ in try read(UInt64.self) }
            let type = try read(UInt32.self)
            entries.append(Entry(name: name, dimensions: dimensions, type: type, offset: Int(try read(UInt64.self))))
        }
    }
}
