import Foundation

/// The header of a GGUF file, read in Swift before llama.cpp sees the file.
///
/// llama.cpp answers every bad file with the same NULL. Reading the header first lets Lantern
/// say which of the common cases it is — not a GGUF at all, cut short by a failed download,
/// or damaged — and name the architecture before trying to load it.
public struct GGUFFile: Sendable {
    /// Metadata values as text (arrays are summarised by their length).
    public let metadata: [String: String]
    public let version: UInt32
    public let tensorCount: UInt64
    public let fileSize: Int64
    /// Bytes the tensors need, counted from the header; more than `fileSize` means truncated.
    public let requiredSize: Int64
    /// Where the tensor data begins: the header's end rounded up to the file's alignment.
    public let dataOffset: Int64

    public var architecture: String? { metadata["general.architecture"] }

    /// Reads and checks the header of `url`. Throws the typed error a load would deserve.
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
        // Every number below comes from the file: each is checked before it takes part in
        // arithmetic, so a crafted header ends in `corruptFile` naming the field, never a trap.
        do {
            _ = try reader.uint32()
            version = try reader.uint32()
            tensorCount = try reader.uint64()
            let keyCount = try reader.uint64()
            var metadata: [String: String] = [:]
            var alignmentType: UInt32?
            for _ in 0..<keyCount {
                let key = try reader.string()
                let type = try reader.uint32()
                if key == Self.alignmentKey { alignmentType = type }
                metadata[key] = try reader.value(type: type, key: key)
            }
            self.metadata = metadata
            var dataEnd: Int64 = 0
            for _ in 0..<tensorCount {
                dataEnd = max(dataEnd, try Self.readTensorEnd(&reader))
            }
            let alignment = try Self.alignment(metadata[Self.alignmentKey], type: alignmentType)
            let headerEnd = Int64(reader.offset)
            // headerEnd is at most the file's size and alignment at most 2^31: no overflow
            let dataStart = (headerEnd + alignment - 1) / alignment * alignment
            fileSize = Int64(data.count)
            dataOffset = dataStart
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
            throw .corruptFile(path: path, reason: "truncated: the file is \(fileSize) bytes but its tensors need \(requiredSize)")
        }
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
    private static func alignment(_ text: String?, type: UInt32?) throws -> Int64 {
        guard let text else { return 32 }
        guard type == 4 else {
            throw Reader.Failure.malformed("\(alignmentKey) is a \(Reader.typeName(type ?? 0)) (\(text)); it must be a uint32 power of two")
        }
        guard let value = UInt32(text), value != 0, value & (value - 1) == 0 else {
            throw Reader.Failure.malformed("\(alignmentKey) is \(text); it must be a power of two")
        }
        return Int64(value)
    }

    /// Reads one entry of the tensor table and returns where its data ends, relative to the
    /// start of the data section.
    private static func readTensorEnd(_ reader: inout Reader) throws -> Int64 {
        let name = try reader.string()
        let dimensionCount = try reader.uint32()
        guard dimensionCount <= 8 else { throw Reader.Failure.malformed("tensor \(name) has \(dimensionCount) dimensions") }
        var dimensions: [UInt64] = []
        for _ in 0..<dimensionCount { dimensions.append(try reader.uint64()) }
        let type = try reader.uint32()
        let rawOffset = try reader.uint64()
        let shape = dimensions.map(String.init).joined(separator: " x ")
        var elements: Int64 = 1
        for (index, raw) in dimensions.enumerated() {
            guard let dimension = Int64(exactly: raw) else {
                throw Reader.Failure.malformed("tensor \(name): dimension \(index + 1) is \(raw), larger than 2^63 - 1")
            }
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow else {
                throw Reader.Failure.malformed("tensor \(name): its dimensions \(shape) make more than 2^63 - 1 elements")
            }
            elements = product
        }
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
        return end
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

    /// Reads one metadata value of GGUF type `type` (the value of `key`) and returns it as text.
    mutating func value(type: UInt32, key: String) throws -> String {
        switch type {
        case 0: return String(try integer(UInt8.self))
        case 1: return String(try integer(Int8.self))
        case 2: return String(try integer(UInt16.self))
        case 3: return String(try integer(Int16.self))
        case 4: return String(try integer(UInt32.self))
        case 5: return String(try integer(Int32.self))
        case 6: return String(Float(bitPattern: try integer(UInt32.self)))
        case 7: return try integer(UInt8.self) != 0 ? "true" : "false"
        case 8: return try string()
        case 9:
            let elementType = try uint32()
            // GGUF has no arrays of arrays; reading them recursively would let a file nest
            // them until the stack overflows
            guard elementType != 9 else { throw Failure.malformed("metadata \(key) is an array of arrays, which GGUF does not allow") }
            let count = try uint64()
            guard count < UInt64(data.count) else { throw Failure.malformed("metadata \(key): an array of \(count) values is larger than the file") }
            for _ in 0..<count { _ = try value(type: elementType, key: key) }
            return "[\(count) values]"
        case 10: return String(try integer(UInt64.self))
        case 11: return String(try integer(Int64.self))
        case 12: return String(Double(bitPattern: try integer(UInt64.self)))
        default: throw Failure.malformed("metadata \(key) has unknown type \(type) at byte \(offset)")
        }
    }

    /// GGUF's name for a metadata type, for messages.
    static func typeName(_ type: UInt32) -> String {
        let names = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"]
        return type < names.count ? names[Int(type)] : "type \(type)"
    }
}
