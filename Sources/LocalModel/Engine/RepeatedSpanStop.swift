import Foundation

/// Ends generation when the output repeats a delimited span: a small model looping on one
/// tool call writes the same `<tool_call>…</tool_call>` three or four times in a row, and
/// every copy costs decoding time and context. Generation stops right after the first repeat's
/// closing delimiter, so the caller still sees the repeat and can answer it.
public struct RepeatedSpanStop: Sendable, Hashable {
    public var open: String
    public var close: String
    /// Spans from before this generation (their text between the delimiters, trimmed), which
    /// count as repeated too: an earlier round's calls.
    public var earlierSpans: Set<String>

    public init(open: String, close: String, earlierSpans: Set<String> = []) {
        self.open = open
        self.close = close
        self.earlierSpans = earlierSpans
    }

    /// The complete spans in `text`, trimmed, in order.
    public func spans(in text: String) -> [String] {
        var spans: [String] = []
        var rest = text[...]
        while let openRange = rest.range(of: open), let closeRange = rest[openRange.upperBound...].range(of: close) {
            spans.append(rest[openRange.upperBound..<closeRange.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines))
            rest = rest[closeRange.upperBound...]
        }
        return spans
    }

    /// Follows one generation's text as it arrives (a remote model's conversation watches
    /// the streamed text with it, as the engine watches its own).
    package struct Watch {
        let stop: RepeatedSpanStop
        private var seen: Set<String>
        private var unread = ""

        package init(_ stop: RepeatedSpanStop) {
            self.stop = stop
            seen = stop.earlierSpans
        }

        /// Adds newly generated text; true when a span just closed that was seen before.
        package mutating func repeats(after text: String) -> Bool {
            unread += text
            // a close that is new ends within the new text: look no further back than that
            let newTail = unread.index(unread.endIndex, offsetBy: -(text.count + stop.close.count - 1), limitedBy: unread.startIndex) ?? unread.startIndex
            guard let lastClose = unread[newTail...].range(of: stop.close, options: .backwards) else { return false }
            let complete = stop.spans(in: String(unread[..<lastClose.upperBound]))
            unread.removeSubrange(..<lastClose.upperBound)   // what follows may start the next span
            return complete.contains { !seen.insert($0).inserted }
        }
    }
}
