/// Substring tests on UTF-8 bytes for the name patterns of chrome and content (class and id
/// tokens, which are ASCII in practice), without Foundation's `contains`, which goes through
/// NSString on Linux and cost more than the parse itself.
enum ASCIIMatch {
    /// `text`'s bytes with ASCII letters in lowercase.
    static func lowercased(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }

    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    static func containsAny(_ haystack: ArraySlice<UInt8>, _ needles: [[UInt8]]) -> Bool {
        needles.contains { contains(haystack, $0) }
    }
}
