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
            throw .corruptFile(path: path, reason: "cannot be read: \(error.localizedDescription)")
        }
        var reader = Reader(data: data)
        guard data.prefix(4) == Data("GGUF".utf8) else { throw .notGGUF(path: path, magic: reader.peekMagic()) }
        do {
            _ = try reader.uint32()
            version = try reader.uint32()
            tensorCount = try reader.uint64()
            let keyCount = try reader.uint64()
            var metadata: [String: String] = [:]
            for _ in 0..<keyCount {
                let key = try reader.string()
                metadata[key] = try reader.value(type: try reader.uint32())
            }
            self.metadata = metadata
            var dataEnd: Int64 = 0
            for _ in 0..<tensorCount {
                let name = try reader.string()
                let dimensions = try reader.uint32()
                guard dimensions <= 8 else { throw Reader.Failure.malformed("tensor \(name) has \(dimensions) dimensions") }
                var elements: Int64 = 1
                for _ in 0..<dimensions { elements = elements.multipliedReportingOverflow(by: Int64(try reader.uint64())).partialValue }
                let type = try reader.uint32()
                let offset = Int64(try reader.uint64())
                guard let bytes = LlamaRuntime.tensorBytes(type: type, elements: elements) else {
                    throw Reader.Failure.malformed("tensor \(name) has unknown type \(type)")
                }
                dataEnd = max(dataEnd, offset + bytes)
            }
            let alignment = Int64(metadata["general.alignment"].flatMap(Int64.init) ?? 32)
            let headerEnd = Int64(reader.offset)
            let dataStart = (headerEnd + alignment - 1) / alignment * alignment
            fileSize = Int64(data.count)
            requiredSize = dataStart + dataEnd
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

    /// Reads one metadata value of GGUF type `type` and returns it as text.
    mutating func value(type: UInt32) throws -> String {
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
            let count = try uint64()
            guard count < UInt64(data.count) else { throw Failure.malformed("an array of \(count) values is larger than the file") }
            for _ in 0..<count { _ = try value(type: elementType) }
            return "[\(count) values]"
        case 10: return String(try integer(UInt64.self))
        case 11: return String(try integer(Int64.self))
        case 12: return String(Double(bitPattern: try integer(UInt64.self)))
        default: throw Failure.malformed("unknown metadata type \(type) at byte \(offset)")
        }
    }
}
