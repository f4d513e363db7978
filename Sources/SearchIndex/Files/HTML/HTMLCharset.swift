/// The encoding of an HTML page's bytes, found as a browser's prescan finds it: a byte-order
/// mark, else a `<meta charset=…>` or `<meta http-equiv="Content-Type" content="…; charset=…">`
/// in the first 1,024 bytes, else UTF-8. Labels map as the WHATWG Encoding standard maps them
/// where it matters: ISO-8859-1, Latin-1 and US-ASCII mean windows-1252 (a superset whose
/// 0x80–0x9F are the curly quotes and dashes pages declared Latin-1 really hold), and a `<meta>`
/// claiming UTF-16 means UTF-8 (bytes that reached a `<meta>` prescan are not UTF-16).
struct HTMLCharset: Sendable, Equatable {
    /// The encoding's name as iconv spells it: "UTF-8", "WINDOWS-1252", ….
    var name: String
    /// The length of the byte-order mark the bytes start with, which is not text.
    var byteOrderMarkLength: Int

    static let utf8Name = "UTF-8"

    var isUTF8: Bool { name == Self.utf8Name }

    /// The page's encoding, from its first bytes.
    static func of(_ bytes: UnsafeRawBufferPointer) -> HTMLCharset {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return HTMLCharset(name: utf8Name, byteOrderMarkLength: 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return HTMLCharset(name: "UTF-16LE", byteOrderMarkLength: 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return HTMLCharset(name: "UTF-16BE", byteOrderMarkLength: 2) }
        let label = declaredLabel(in: Array(bytes.prefix(1_024)))
        return HTMLCharset(name: label.map(encodingName) ?? utf8Name, byteOrderMarkLength: 0)
    }

    /// The charset a `<meta>` tag in `head` declares, lowercased, if one does.
    static func declaredLabel(in head: [UInt8]) -> String? {
        let lower = head.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let meta = Array("<meta".utf8), charset = Array("charset".utf8)
        var position = 0
        while let start = find(meta, in: lower, from: position) {
            let tagEnd = lower[(start + meta.count)...].firstIndex(of: UInt8(ascii: ">")) ?? lower.count
            position = start + meta.count
            guard let found = find(charset, in: lower, from: position, before: tagEnd) else { continue }
            var index = found + charset.count
            while index < tagEnd, isSpace(lower[index]) { index += 1 }
            guard index < tagEnd, lower[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < tagEnd, isSpace(lower[index]) { index += 1 }
            if index < tagEnd, lower[index] == UInt8(ascii: "\"") || lower[index] == UInt8(ascii: "'") { index += 1 }
            let valueStart = index
            while index < tagEnd, !isSpace(lower[index]), !"\"';/>".utf8.contains(lower[index]) { index += 1 }
            guard index > valueStart, index - valueStart <= 40 else { continue }
            return String(decoding: lower[valueStart..<index], as: UTF8.self)
        }
        return nil
    }

    /// The encoding name iconv is given for a declared label.
    static func encodingName(_ label: String) -> String {
        switch label {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8",
             "utf-16", "utf-16le", "utf-16be", "unicode", "ucs-2", "iso-10646-ucs-2", "x-user-defined":
            utf8Name
        case "iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "latin1", "l1", "cp819", "ibm819",
             "csisolatin1", "iso-ir-100", "us-ascii", "ascii", "ansi_x3.4-1968", "cp1252", "windows-1252", "x-cp1252":
            "WINDOWS-1252"
        default:
            label.uppercased()
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let limit = (end ?? haystack.count) - needle.count
        guard start <= limit else { return nil }
        var index = start
        while index <= limit {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
