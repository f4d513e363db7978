/// Turns generated token bytes into text that is safe to show.
///
/// A token can end in the middle of a UTF-8 character, and a stop string can span tokens, so
/// bytes are held back until they form whole characters and text is held back while it could
/// still be the start of a stop string.
struct GeneratedTextAssembler {
    private let stopStrings: [String]
    private var pendingBytes: [UInt8] = []
    private var pendingText = ""

    init(stopStrings: [String]) { self.stopStrings = stopStrings.filter { !$0.isEmpty } }

    /// Adds one token's bytes. Returns the text now safe to emit and the stop string that was
    /// reached, if any (text from the stop string on is dropped).
    mutating func append(_ bytes: [UInt8]) -> (text: String, stop: String?) {
        pendingBytes += bytes
        let complete = Self.completePrefixLength(pendingBytes)
        pendingText += String(decoding: pendingBytes[..<complete], as: UTF8.self)
        pendingBytes.removeFirst(complete)

        if let (range, stop) = earliestStop(in: pendingText) {
            let text = String(pendingText[..<range.lowerBound])
            pendingText = ""
            return (text, stop)
        }
        let keep = longestStopPrefixSuffix(of: pendingText)
        let emitEnd = pendingText.index(pendingText.endIndex, offsetBy: -keep)
        let text = String(pendingText[..<emitEnd])
        pendingText.removeSubrange(..<emitEnd)
        return (text, nil)
    }

    /// What is left when generation ends: held-back text, and any dangling bytes as U+FFFD.
    mutating func finish() -> String {
        defer { pendingText = ""; pendingBytes = [] }
        return pendingText + String(decoding: pendingBytes, as: UTF8.self)
    }

    /// Length of the longest prefix that does not end inside a multi-byte character.
    static func completePrefixLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        var continuation = 0
        while index >= 0, continuation < 3, bytes[index] & 0xC0 == 0x80 {
            continuation += 1
            index -= 1
        }
        guard index >= 0 else { return bytes.count }
        let lead = bytes[index]
        let needed: Int
        switch lead {
        case 0xF0...0xF7: needed = 3
        case 0xE0...0xEF: needed = 2
        case 0xC0...0xDF: needed = 1
        default: needed = 0
        }
        return continuation < needed ? index : bytes.count
    }

    private func earliestStop(in text: String) -> (Range<String.Index>, String)? {
        stopStrings.compactMap { stop in text.range(of: stop).map { ($0, stop) } }
            .min { $0.0.lowerBound < $1.0.lowerBound }
    }

    /// Characters at the end of `text` that could still grow into a stop string.
    private func longestStopPrefixSuffix(of text: String) -> Int {
        var longest = 0
        for stop in stopStrings {
            for length in stride(from: min(stop.count - 1, text.count), to: longest, by: -1)
            where text.hasSuffix(stop.prefix(length)) {
                longest = length
                break
            }
        }
        return longest
    }
}
