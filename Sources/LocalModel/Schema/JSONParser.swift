/// A strict RFC 8259 JSON parser that keeps key order and integer exactness.
///
/// Strict on purpose: text a model produced under a grammar must be exactly JSON, so the parser
/// rejects what lenient parsers accept (trailing commas, leading zeros, comments, NaN, unescaped
/// control characters, lone surrogates, duplicate keys, text after the value) and says where.
/// Duplicate keys are the one exception a caller can ask for (`DuplicateKeys.lastWins`).
struct JSONParser {
    private let bytes: [UInt8]
    private let duplicateKeys: JSONValue.DuplicateKeys
    private var index = 0
    /// Containers open at once; deeper input is rejected instead of overflowing the stack.
    private static let maximumDepth = 512
    private var depth = 0

    init(_ text: String, duplicateKeys: JSONValue.DuplicateKeys = .refused) {
        bytes = Array(text.utf8)
        self.duplicateKeys = duplicateKeys
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error(expected: "end of text") }
        return value
    }

    /// One value at the start of the text (after whitespace) and the UTF-8 offset just past
    /// it; whatever follows is the caller's.
    mutating func parseLeadingValue() throws(JSONParseError) -> (value: JSONValue, end: Int) {
        skipWhitespace()
        let value = try parseValue()
        return (value, index)
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(expected: "a JSON value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error(expected: "a JSON value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(object) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error(expected: "a string key") }
            let keyStart = index
            let key = try parseString()
            if object[key] != nil, duplicateKeys == .refused {
                index = keyStart
                throw error(expected: "a key not already in this object (duplicate \(JSONValue.quoted(key)))")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error(expected: "':'") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(object) }
            throw error(expected: "',' or '}'")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(items) }
            throw error(expected: "',' or ']'")
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error(expected: "at most \(Self.maximumDepth) nested arrays/objects") }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ end: Int) throws(JSONParseError) {
            guard end > runStart else { return }
            guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                index = runStart
                throw error(expected: "valid UTF-8 text")
            }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error(expected: "an escaped control character (\\n, \\t, \\u00XX)") }
            if byte == UInt8(ascii: "\\") {
                try flush(index)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
                continue
            }
            index += 1
        }
        throw error(expected: "a closing '\"'")
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error(expected: "an escape character") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count >= index + 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error(expected: "a low surrogate \\uDC00-\\uDFFF after a high surrogate") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    index -= 4
                    throw error(expected: "a low surrogate \\uDC00-\\uDFFF")
                }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                if let scalar = Unicode.Scalar(value) { return scalar }
            } else if let scalar = Unicode.Scalar(high) {
                return scalar
            }
            index -= 4
            throw error(expected: "a Unicode scalar (not a lone low surrogate)")
        default:
            index -= 1
            throw error(expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error(expected: "4 hexadecimal digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error(expected: "'.', 'e' or the end of the number (no leading zeros)") }
        } else {
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(expected: "a digit") }
            skipDigits()
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(expected: "a digit after '.'") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(expected: "a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else {
            index = start
            throw error(expected: "a number within the range of a double")
        }
        return .double(d)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private mutating func skipDigits() { while index < bytes.count, isDigit(bytes[index]) { index += 1 } }
    private func peek(_ b: UInt8) -> Bool { index < bytes.count && bytes[index] == b }

    private mutating func expectWord(_ word: String) throws(JSONParseError) {
        let w = Array(word.utf8)
        guard bytes.count >= index + w.count, Array(bytes[index..<index + w.count]) == w else {
            throw error(expected: "'\(word)'")
        }
        index += w.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func error(expected: String) -> JSONParseError {
        let offset = min(index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let found: String
        if offset >= bytes.count {
            found = "end of text"
        } else {
            let excerpt = String(decoding: bytes[offset..<min(bytes.count, offset + 12)], as: UTF8.self)
            found = JSONValue.quoted(excerpt)
        }
        return JSONParseError(offset: offset, line: line, column: offset - lineStart + 1, expected: expected, found: found)
    }
}

extension JSONValue {
    /// What parsing does with a key an object already has.
    public enum DuplicateKeys: Sendable {
        /// An error (the default: RFC 8259 leaves such an object's meaning open).
        case refused
        /// The last value stands, as in JavaScript and Python. For text generated under a
        /// grammar with free keys (a dictionary, any value), which no grammar can keep from
        /// repeating a key.
        case lastWins
    }

    /// The JSON value `text` starts with (after whitespace), read strictly, and where it ends:
    /// for formats that embed JSON in other text (a tool call between its delimiters).
    package static func leadingValue(of text: Substring, duplicateKeys: DuplicateKeys = .refused) throws(JSONParseError)
        -> (value: JSONValue, end: Substring.Index) {
        var parser = JSONParser(String(text), duplicateKeys: duplicateKeys)
        let (value, end) = try parser.parseLeadingValue()
        return (value, text.utf8.index(text.startIndex, offsetBy: end))
    }

    /// Parses JSON text strictly (RFC 8259), keeping key order; throws where and what was expected.
    public init(parsing text: String, duplicateKeys: DuplicateKeys = .refused) throws(JSONParseError) {
        var parser = JSONParser(text, duplicateKeys: duplicateKeys)
        self = try parser.parseDocument()
    }
}
