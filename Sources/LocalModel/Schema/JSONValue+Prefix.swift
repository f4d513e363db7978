extension JSONValue {
    /// The part of a JSON text cut off mid-way that is already complete: the open objects and
    /// arrays with the members and elements written in full so far, and nothing of a member
    /// still being written (a half string, a number that may grow, a key without its value).
    ///
    /// Streaming guided generation shows these as snapshots: every value in one is final, and
    /// each snapshot's objects and arrays only gain members as generation goes on. Returns nil
    /// when nothing is complete yet, or when `text` is not the start of a JSON value.
    ///
    /// Rather than a second, lenient parser, this finds the last place where the text can be
    /// closed (after an opening bracket, a complete member or element, or a closed container),
    /// closes the containers still open there, and reads the result with the strict parser.
    public init?(parsingPrefix text: String) {
        let bytes = Array(text.utf8)
        var open: [UInt8] = []          // the closing bracket of each open container
        var expectsKey: [Bool] = []     // per open container: an object waiting for a key
        var inString = false, escaped = false, stringIsKey = false
        var cut: (end: Int, closers: [UInt8])?
        func closable(at end: Int) { cut = (end, open.reversed()) }

        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if !stringIsKey { closable(at: index + 1) }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                stringIsKey = expectsKey.last == true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                expectsKey.append(byte == UInt8(ascii: "{"))
                closable(at: index + 1)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.popLast() == byte else { return nil }
                expectsKey.removeLast()
                closable(at: index + 1)
            case UInt8(ascii: ":"):
                if !expectsKey.isEmpty { expectsKey[expectsKey.count - 1] = false }
            case UInt8(ascii: ","):
                // the member or element before the comma is complete (a number or a literal
                // ends here); the next object member starts with a key
                closable(at: index)
                if open.last == UInt8(ascii: "}") { expectsKey[expectsKey.count - 1] = true }
            default:
                break
            }
        }
        guard let cut, let value = try? JSONValue(parsing: String(decoding: bytes[..<cut.end] + cut.closers, as: UTF8.self)) else {
            return nil
        }
        self = value
    }
}
