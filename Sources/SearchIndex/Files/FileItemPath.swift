import Foundation

/// A file's path as the file system holds it: bytes, which need not be UTF-8 (Linux names are
/// any bytes but `/` and NUL). It gives the file's item three spellings:
///
/// - `bytes`, to open the file again;
/// - `identifier`, the item's `uniqueIdentifier`: the path itself when it is UTF-8 (as every
///   index built before kept it), otherwise a `file://` URL that percent-escapes the bytes
///   that are not UTF-8 and the ASCII characters a URL cannot hold (`%`, `?`, `#`, spaces,
///   controls, …) while valid non-ASCII characters stay as they are. It maps back to the exact
///   bytes (`init?(identifier:)`), so two names that differ only in invalid bytes are two
///   items, and it cannot meet a UTF-8 path, which starts with `/`;
/// - `shown`, for titles, names and the `path` attribute: each invalid sequence becomes U+FFFD.
package struct FileItemPath: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A path that is a Swift string (so UTF-8).
    package init(_ path: String) {
        bytes = Array(path.utf8)
    }

    static let urlPrefix = "file://"

    /// The path an item identifier names: a UTF-8 path as it is, a `file://` identifier with
    /// its escapes undone; nil for an identifier no file source wrote.
    package init?(identifier: String) {
        if identifier.hasPrefix("/") {
            bytes = Array(identifier.utf8)
            return
        }
        guard identifier.hasPrefix(Self.urlPrefix) else { return nil }
        let encoded = Array(identifier.utf8.dropFirst(Self.urlPrefix.utf8.count))
        var decoded: [UInt8] = []
        decoded.reserveCapacity(encoded.count)
        var position = 0
        while position < encoded.count {
            let byte = encoded[position]
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                position += 1
                continue
            }
            guard position + 2 < encoded.count, let high = Self.hexValue(encoded[position + 1]), let low = Self.hexValue(encoded[position + 2]) else { return nil }
            decoded.append(high << 4 | low)
            position += 3
        }
        guard decoded.first == UInt8(ascii: "/") else { return nil }
        bytes = decoded
    }

    /// Whether the path is valid UTF-8 (its identifier is then the path itself).
    package var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The item identifier (see the type's note).
    package var identifier: String {
        String(validating: bytes, as: UTF8.self) ?? escapedIdentifier
    }

    /// The `file://` spelling, which every path has; a UTF-8 path's identifier is its plain
    /// spelling instead. Escaping works byte by byte, so the spelling of a folder followed by
    /// `/` begins the spelling of every path beneath it.
    var escapedIdentifier: String {
        var text = Self.urlPrefix
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                if Self.keptASCII.contains(byte) {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    text += Self.escape(byte)
                }
                position += 1
                continue
            }
            let length = Self.validSequenceLength(at: position, in: bytes)
            if length > 0, let scalar = String(validating: bytes[position..<position + length], as: UTF8.self) {
                text += scalar
                position += length
            } else {
                text += Self.escape(byte)
                position += 1
            }
        }
        return text
    }

    /// The path to show: each invalid UTF-8 sequence is U+FFFD.
    package var shown: String { String(decoding: bytes, as: UTF8.self) }

    package var description: String { shown }

    /// The last component's bytes.
    package var name: [UInt8] {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return bytes }
        return Array(bytes[(slash + 1)...])
    }

    /// The path of `name` inside this folder.
    package func appending(_ name: [UInt8]) -> FileItemPath {
        FileItemPath(bytes: bytes.last == UInt8(ascii: "/") ? bytes + name : bytes + [UInt8(ascii: "/")] + name)
    }

    /// Whether this path is `folder` or lies beneath it.
    package func isInside(_ folder: FileItemPath) -> Bool {
        guard bytes.count >= folder.bytes.count, bytes.starts(with: folder.bytes) else { return false }
        return bytes.count == folder.bytes.count || folder.bytes.last == UInt8(ascii: "/")
            || bytes[folder.bytes.count] == UInt8(ascii: "/")
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        let terminated = bytes.map { CChar(bitPattern: $0) } + [0]
        return try body(terminated)
    }

    /// ASCII kept as it is in a `file://` spelling: RFC 3986's unreserved characters, its
    /// sub-delimiters, `:`, `@` and `/`. Everything else ASCII is escaped.
    private static let keptASCII: Set<UInt8> = Set(
        Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8))

    private static func escape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The length of the UTF-8 sequence its lead byte at `position` announces (2 to 4), or 0
    /// when that byte cannot lead one or the sequence runs past the end. Validity is then
    /// checked by decoding.
    private static func validSequenceLength(at position: Int, in bytes: [UInt8]) -> Int {
        let length = switch bytes[position] {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
        return position + length <= bytes.count ? length : 0
    }
}
