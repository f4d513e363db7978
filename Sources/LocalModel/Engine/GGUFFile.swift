import Foundation

/// The header of a GGUF file, read in Swift before llama.cpp sees the file.
///
/// llama.cpp answers every bad file with the same NULL. Reading the header first lets Lantern
/// say which of the common cases it is — not a GGUF at all, cut short by a failed download,
/// or damaged — and name the architecture before trying to load it.
public struct GGUFFile: Sendable {
    /// Metadata values as text (arrays are summarised by their length).
    public let metadata: [String: String]
    /// The same values typed: integers exact, arrays with their element type and length.
    public let values: [String: GGUFValue]
    /// Each tensor's dimensions by name, innermost first as ggml counts them
    /// (`token_embd.weight` is embedding length x vocabulary size).
    public let tensorDimensions: [String: [UInt64]]
    public let version: UInt32
    public let tensorCount: UInt64
    public let fileSize: Int64
    /// Bytes the tensors need, counted from the header; more than `fileSize` means truncated.
    public let requiredSize: Int64
    /// Where the tensor data begins: the header's end rounded up to the file's alignment.
    public let dataOffset: Int64

    public var architecture: String? { metadata["general.architecture"] }

    /// The GGUF versions llama.cpp reads (version 1 is long gone; a later one is unknown to it).
    public static let supportedVersions: ClosedRange<UInt32> = 2...3

    /// Reads and checks the header of `url`. Throws the typed error a load would deserve: for a
    /// file llama.cpp could not read, and for metadata it would stop the process on
    /// (`ModelHyperparameters`), so that no file reaches llama.cpp that would end the process.
    public init(contentsOf url: URL) throws(LocalModelError) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .isDirectory(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw Self.readFailure(error, path: path)
        }
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        var reader = Reader(data: data)
        guard data.prefix(4) == Data("GGUF".utf8) else { throw .notGGUF(path: path, magic: reader.peekMagic()) }
        // The version decides how the rest reads, so it is checked first: a version this
        // llama.cpp does not know is called that, not "truncated" or "damaged".
        reader.offset = 4
        guard let fileVersion = try? reader.uint32() else {
            throw .corruptFile(path: path, reason: Reader.Failure.truncated(at: data.count).description)
        }
        guard Self.supportedVersions.contains(fileVersion) else { throw .unsupportedGGUFVersion(path: path, version: fileVersion) }
        version = fileVersion
        // Every number below comes from the file: each is checked before it takes part in
        // arithmetic, so a crafted header ends in `corruptFile` naming the field, never a trap.
        do {
            tensorCount = try reader.uint64()
            let keyCount = try reader.uint64()
            var values: [String: GGUFValue] = [:]
            for _ in 0..<keyCount {
                let key = try reader.string()
                guard !key.isEmpty else { throw Reader.Failure.malformed("metadata key \(values.count + 1) is empty") }
                let type = try reader.uint32()
                // llama.cpp refuses a key that appears twice; which one it means is not clear
                guard values[key] == nil else { throw Reader.Failure.malformed("metadata \(key) appears twice") }
                values[key] = try reader.value(type: type, key: key)
            }
            self.values = values
            metadata = values.mapValues(\.text)
            var dataEnd: Int64 = 0
            var tensorDimensions: [String: [UInt64]] = [:]
            for _ in 0..<tensorCount {
                let tensor = try Self.readTensor(&reader)
                guard tensorDimensions[tensor.name] == nil else { throw Reader.Failure.malformed("tensor \(tensor.name) appears twice") }
                tensorDimensions[tensor.name] = tensor.dimensions
                dataEnd = max(dataEnd, tensor.end)
            }
            self.tensorDimensions = tensorDimensions
            let alignment = try Self.alignment(values[Self.alignmentKey])
            let headerEnd = Int64(reader.offset)
            // headerEnd is at most the file's size and alignment at most 2^31: no overflow
            let dataStart = (headerEnd + alignment - 1) / alignment * alignment
            fileSize = Int64(data.count)
            dataOffset = dataStart
            // llama.cpp seeks to the data section even when no tensor has data there
            let (required, overflow) = dataStart.addingReportingOverflow(dataEnd)
            guard !overflow else {
                throw Reader.Failure.malformed("the tensor data starts at byte \(dataStart) and ends \(dataEnd) bytes after it, beyond any file")
            }
            requiredSize = required
        } catch let failure as Reader.Failure {
            throw .corruptFile(path: path, reason: failure.description)
        } catch {
            throw .corruptFile(path: path, reason: "\(error)")
        }
        if requiredSize > fileSize {
            let needs = requiredSize == dataOffset ? "its header, padded to the alignment, needs" : "its tensors need"
            throw .corruptFile(path: path, reason: "truncated: the file is \(fileSize) bytes but \(needs) \(requiredSize)")
        }
        try ModelHyperparameters.check(values: values, tensorDimensions: tensorDimensions, path: path)
    }
}

extension GGUFFile {
    static let alignmentKey = "general.alignment"

    /// Why the file could not be read, as the error a user can act on: permission denied is
    /// not damage, and downloading the file again would not help.
    private static func readFailure(_ error: any Error, path: String) -> LocalModelError {
        let code = (error as? CocoaError)?.code
        let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0.code : nil }
        if code == .fileReadNoPermission || posix == Int(EACCES) || posix == Int(EPERM) {
            return .permissionDenied(path: path)
        }
        return .unreadable(path: path, reason: error.localizedDescription)
    }

    /// The file's `general.alignment`: 32 when absent; like llama.cpp, a uint32 power of two
    /// (llama.cpp asserts the type and would abort on any other).
    private static func alignment(_ value: GGUFValue?) throws -> Int64 {
        guard let value else { return 32 }
        guard case .integer(let number, .uint32) = value else {
            throw Reader.Failure.malformed("\(alignmentKey) is a \(value.type) (\(value.text)); it must be a uint32 power of two")
        }
        guard number != 0, number & (number - 1) == 0 else {
            throw Reader.Failure.malformed("\(alignmentKey) is \(number); it must be a power of two")
        }
        return Int64(number)
    }

    /// Reads one entry of the tensor table: its name, its dimensions and where its data ends,
    /// relative to the start of the data section.
    private static func readTensor(_ reader: inout Reader) throws -> (name: String, dimensions: [UInt64], end: Int64) {
        let name = try reader.string()
        // ggml keeps a tensor's name in 64 bytes with its terminating zero, and refuses longer
        guard name.utf8.count < 64 else {
            throw Reader.Failure.malformed("tensor \(name.prefix(64))… has a name of \(name.utf8.count) bytes; ggml's limit is 63")
        }
        let dimensionCount = try reader.uint32()
        guard dimensionCount <= 8 else { throw Reader.Failure.malformed("tensor \(name) has \(dimensionCount) dimensions") }
        var dimensions: [UInt64] = []
        for _ in 0..<dimensionCount { dimensions.append(try reader.uint64()) }
        let type = try reader.uint32()
        let rawOffset = try reader.uint64()
        let shape = dimensions.map(String.init).joined(separator: " x ")
        // ggml asserts (aborts) while it multiplies the dimensions it is given, a zero among them
        // included: so the product of the dimensions other than zero must fit as well
        var nonzeroProduct: Int64 = 1
        for (index, raw) in dimensions.enumerated() {
            guard let dimension = Int64(exactly: raw) else {
                throw Reader.Failure.malformed("tensor \(name): dimension \(index + 1) is \(raw), larger than 2^63 - 1")
            }
            guard dimension != 0 else { continue }
            let (product, overflow) = nonzeroProduct.multipliedReportingOverflow(by: dimension)
            guard !overflow, product < Int64.max else {
                throw Reader.Failure.malformed("tensor \(name): its dimensions \(shape) make more than 2^63 - 1 elements")
            }
            nonzeroProduct = product
        }
        let elements = dimensions.contains(0) ? 0 : nonzeroProduct
        guard let block = LlamaRuntime.tensorBlock(type: type) else {
            throw Reader.Failure.malformed("tensor \(name) has unknown type \(type)")
        }
        let rowLength = dimensions.first.flatMap { Int64(exactly: $0) } ?? 1
        guard rowLength % block.elements == 0 else {
            throw Reader.Failure.malformed("tensor \(name): rows of \(rowLength) values are not whole blocks of \(block.elements) (ggml type \(type))")
        }
        let (bytes, bytesOverflow) = (elements / block.elements).multipliedReportingOverflow(by: block.bytes)
        guard !bytesOverflow else {
            throw Reader.Failure.malformed("tensor \(name): \(shape) values of ggml type \(type) are more than 2^63 - 1 bytes")
        }
        guard let offset = Int64(exactly: rawOffset) else {
            throw Reader.Failure.malformed("tensor \(name): its data offset \(rawOffset) is larger than 2^63 - 1")
        }
        let (end, endOverflow) = offset.addingReportingOverflow(bytes)
        guard !endOverflow else {
            throw Reader.Failure.malformed("tensor \(name): its data offset \(rawOffset) plus its \(bytes) bytes is larger than 2^63 - 1")
        }
        return (name, dimensions, end)
    }
}

/// A bounds-checked little-endian reader over the mapped file.
private struct Reader {
    enum Failure: Error, CustomStringConvertible {
        case truncated(at: Int)
        case malformed(String)
        var description: String {
            switch self {
            case .truncated(let offset): return "truncated: the header ends early at byte \(offset)"
            case .malformed(let what): return what
            }
        }
    }

    let data: Data
    var offset = 0

    init(data: Data) { self.data = data }

    func peekMagic() -> String {
        let bytes = data.prefix(4)
        if let text = String(bytes: bytes, encoding: .ascii), text.allSatisfy({ $0.isASCII && !$0.isNewline }) {
            return "\"\(text)\""
        }
        return bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    mutating func bytes(_ count: Int) throws -> Data {
        guard count >= 0, offset + count <= data.count else { throw Failure.truncated(at: data.count) }
        defer { offset += count }
        return data.subdata(in: data.startIndex + offset..<data.startIndex + offset + count)
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let raw = try bytes(MemoryLayout<T>.size)
        return raw.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(as: T.self)) }
    }

    mutating func uint32() throws -> UInt32 { try integer(UInt32.self) }
    mutating func uint64() throws -> UInt64 { try integer(UInt64.self) }

    mutating func string() throws -> String {
        let length = try uint64()
        guard length < UInt64(data.count) else { throw Failure.malformed("a string length of \(length) bytes is larger than the file") }
        return String(decoding: try bytes(Int(length)), as: UTF8.self)
    }

    /// Skips one string, reading only its length.
    mutating func skipString() throws {
        let length = try uint64()
        guard length < UInt64(data.count) else { throw Failure.malformed("a string length of \(length) bytes is larger than the file") }
        try skip(Int(length))
    }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, offset + count <= data.count else { throw Failure.truncated(at: data.count) }
        offset += count
    }

    /// Reads one metadata value of GGUF type `type` (the value of `key`).
    mutating func value(type rawType: UInt32, key: String) throws -> GGUFValue {
        guard let type = GGUFValue.ValueType(rawValue: rawType) else {
            throw Failure.malformed("metadata \(key) has unknown type \(rawType) at byte \(offset)")
        }
        switch type {
        case .uint8: return .integer(Int128(try integer(UInt8.self)), type: type)
        case .int8: return .integer(Int128(try integer(Int8.self)), type: type)
        case .uint16: return .integer(Int128(try integer(UInt16.self)), type: type)
        case .int16: return .integer(Int128(try integer(Int16.self)), type: type)
        case .uint32: return .integer(Int128(try integer(UInt32.self)), type: type)
        case .int32: return .integer(Int128(try integer(Int32.self)), type: type)
        case .uint64: return .integer(Int128(try integer(UInt64.self)), type: type)
        case .int64: return .integer(Int128(try integer(Int64.self)), type: type)
        case .float32: return .float(Double(Float(bitPattern: try integer(UInt32.self))), type: type)
        case .float64: return .float(Double(bitPattern: try integer(UInt64.self)), type: type)
        case .bool: return .bool(try integer(UInt8.self) != 0)
        case .string: return .string(try string())
        case .array:
            let rawElementType = try uint32()
            // GGUF has no arrays of arrays; reading them recursively would let a file nest
            // them until the stack overflows
            guard rawElementType != GGUFValue.ValueType.array.rawValue else {
                throw Failure.malformed("metadata \(key) is an array of arrays, which GGUF does not allow")
            }
            guard let elementType = GGUFValue.ValueType(rawValue: rawElementType) else {
                throw Failure.malformed("metadata \(key) is an array of unknown type \(rawElementType) at byte \(offset)")
            }
            let count = try uint64()
            guard count < UInt64(data.count) else { throw Failure.malformed("metadata \(key): an array of \(count) values is larger than the file") }
            let elements = Int(count)
            if elementType.isInteger, elements <= GGUFValue.keptIntegers {
                var integers: [Int128] = []
                integers.reserveCapacity(elements)
                for _ in 0..<elements { integers.append(try value(type: rawElementType, key: key).integer ?? 0) }
                return .array(elementType: elementType, count: elements, integers: integers)
            }
            if let width = elementType.width {
                // count is below the file's size and width at most 8: no overflow
                try skip(elements * width)
            } else {
                for _ in 0..<elements { try skipString() }
            }
            return .array(elementType: elementType, count: elements, integers: nil)
        }
    }
}
