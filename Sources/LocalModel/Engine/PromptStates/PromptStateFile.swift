import Foundation

/// The bytes of one saved prompt state: a header that names its key and tokens, and llama.cpp's
/// own serialisation of the sequence (`llama_state_seq_get_data`) with a checksum.
///
/// Our own layout rather than `llama_state_seq_save_file`'s, so that everything is checked
/// before llama.cpp reads a byte: a file cut short, overwritten or flipped in a bit is found
/// here and decoded as a normal prompt, where llama.cpp would read garbage KV values into the
/// cache (a wrong answer) or stop on an assertion.
///
/// Layout, little-endian: the magic `LNTNKV01`; the key's 64-character digest; the token count
/// (UInt32) and the tokens (Int32 each); the state's length (UInt64) and checksum (UInt64,
/// `checksum(_:)`); the state.
struct PromptStateFile {
    /// What was wrong with a file, in words for a `PromptStateNote`.
    struct Damage: Error {
        let reason: String
    }

    static let magic = Data("LNTNKV01".utf8)

    let key: PromptStateKey
    /// llama.cpp's state of the sequence holding `key.tokens`.
    let state: Data

    /// The file's bytes.
    var data: Data {
        var data = Self.magic
        data.append(Data(key.digest.utf8))
        append(UInt32(key.tokens.count), to: &data)
        for token in key.tokens { append(token, to: &data) }
        append(UInt64(state.count), to: &data)
        append(Self.checksum(state), to: &data)
        data.append(state)
        return data
    }

    /// Reads a file written for `key`; throws `Damage` when it is cut short, longer than its
    /// header says, for another key or other tokens, or its state fails the checksum.
    init(reading data: Data, for key: PromptStateKey) throws(Damage) {
        var reader = Reader(data: data)
        guard try reader.bytes(Self.magic.count) == Self.magic else { throw Damage(reason: "not a Lantern prompt state") }
        guard try reader.bytes(64) == Data(key.digest.utf8) else { throw Damage(reason: "saved for another model, prompt or context") }
        let count = Int(try reader.integer(UInt32.self))
        guard count == key.tokens.count else { throw Damage(reason: "it holds \(count) tokens, not the prompt's \(key.tokens.count)") }
        for token in key.tokens {
            guard try reader.integer(Int32.self) == token else { throw Damage(reason: "its tokens are not the prompt's") }
        }
        let length = try reader.integer(UInt64.self)
        let checksum = try reader.integer(UInt64.self)
        guard length == UInt64(reader.remaining) else {
            throw Damage(reason: "its header promises \(length) bytes of state and \(reader.remaining) follow: cut short or written over")
        }
        let state = try reader.bytes(Int(length))
        guard Self.checksum(state) == checksum else { throw Damage(reason: "its state fails the checksum") }
        self.key = key
        self.state = state
    }

    init(key: PromptStateKey, state: Data) {
        self.key = key
        self.state = state
    }

    /// FNV-1a over 64-bit words (then the last bytes): any change to one word changes it, and it
    /// reads tens of megabytes in milliseconds, where SHA-256 would add a tenth of a second to
    /// every warm start.
    static func checksum(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        data.withUnsafeBytes { raw in
            let words = raw.count / 8
            for index in 0..<words { hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* prime }
            for byte in raw[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* prime }
        }
        return hash
    }

    private func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    /// Reads fields in order; a read past the end is `Damage`.
    private struct Reader {
        let data: Data
        var offset = 0

        var remaining: Int { data.count - offset }

        mutating func bytes(_ count: Int) throws(Damage) -> Data {
            guard count <= remaining else { throw Damage(reason: "cut short at byte \(data.count)") }
            defer { offset += count }
            let start = data.startIndex + offset
            return data[start..<(start + count)]
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws(Damage) -> T {
            let field = try bytes(MemoryLayout<T>.size)
            return T(littleEndian: field.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
        }
    }
}
