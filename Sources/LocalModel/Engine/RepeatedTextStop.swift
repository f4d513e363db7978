/// Ends generation when the output ends in one span written `copies` times in a row: a small
/// model that loops on a phrase (an OCR tool's `[read_text] 53% me`, forty times) would
/// otherwise write until the token limit. Where `RepeatedSpanStop` watches delimited calls,
/// this watches free text, so it serves the answer: a span must be at least `minimumBytes`
/// long and hold a letter or a digit, so a rule of dashes or "very, very" is not a loop.
public struct RepeatedTextStop: Sendable, Hashable {
    public var minimumBytes: Int
    public var maximumBytes: Int
    public var copies: Int

    /// Three copies of one span of 8 to 400 bytes.
    public init(minimumBytes: Int = 8, maximumBytes: Int = 400, copies: Int = 3) {
        self.minimumBytes = max(1, minimumBytes)
        self.maximumBytes = max(self.minimumBytes, maximumBytes)
        self.copies = max(2, copies)
    }

    /// The span `text` ends in `copies` times, if it does (the shortest such span).
    public func repeatedSpan(atEndOf text: String) -> String? {
        repeatedSpan(atEndOf: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    private func repeatedSpan(atEndOf bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let count = bytes.count
        guard count >= minimumBytes * copies else { return nil }
        for length in minimumBytes...min(maximumBytes, count / copies) where bytes[count - 1] == bytes[count - 1 - length] {
            let start = count - length * copies
            guard (start + length..<count).allSatisfy({ bytes[$0] == bytes[$0 - length] }) else { continue }
            let span = bytes[(count - length)...]
            if span.contains(where: { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 >= 0x80 }) { return span }
        }
        return nil
    }

    /// Follows one generation's text as it arrives (a remote model's conversation watches
    /// the streamed text with it, as the engine watches its own).
    package struct Watch {
        let stop: RepeatedTextStop
        private var tail: [UInt8] = []

        package init(_ stop: RepeatedTextStop) { self.stop = stop }

        /// Adds newly generated text; true when the output now ends in a repeated span.
        package mutating func repeats(after text: String) -> Bool {
            guard !text.isEmpty else { return false }
            tail += text.utf8
            let keep = stop.maximumBytes * stop.copies
            if tail.count > 2 * keep { tail.removeFirst(tail.count - keep) }
            return stop.repeatedSpan(atEndOf: tail) != nil
        }
    }
}
