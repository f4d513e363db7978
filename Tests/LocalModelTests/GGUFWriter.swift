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
        case string(String)
        /// An array of values of GGUF type `elementType`, written as they are (nested arrays
        /// are what a valid file never holds).
        case array(elementType: UInt32, [Value])

        var type: UInt32 {
            switch self {
            case .uint32: 4
            case .int32: 5
            case .uint64: 10
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
    /// Bytes of tensor data written after the header's padding.
    var dataSize = 0
    /// The padding the writer uses (the file's own `general.alignment` may say otherwise).
    var padding = 32

    func data() -> Data {
        var out = Data("GGUF".utf8)
        Self.append(UInt32(3), to: &out)
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
        out.append(Data(count: dataSize))
        return out
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
