/// Separates what the user should read from what the model wrote while generating.
///
/// Qwen3 writes `<think>…</think>` before its answer (an empty block with `/no_think`), and any
/// model may start a `<tool_call>` after some text. Both are hidden from the response content;
/// text is held back while it could still be the start of either marker, so a stream never
/// shows half a tag.
struct ResponseTextFilter {
    private enum State { case visible, thinking, calling }

    private static let thinkOpen = "<think>"
    private static let thinkClose = "</think>"
    private static let markers = [thinkOpen, ToolCallFormat.callOpen]

    private var state = State.visible
    private var buffer = ""
    /// Leading whitespace is dropped at the start of the answer and after a think block.
    private var atStart = true

    /// Feeds generated text; returns the newly visible part.
    mutating func feed(_ text: String) -> String {
        buffer += text
        var visible = ""
        while true {
            switch state {
            case .calling:
                buffer = ""
                return visible
            case .thinking:
                guard let close = buffer.range(of: Self.thinkClose) else {
                    buffer = String(buffer.suffix(Self.thinkClose.count - 1))
                    return visible
                }
                buffer = String(buffer[close.upperBound...])
                state = .visible
                atStart = true
            case .visible:
                if atStart {
                    buffer = String(buffer.drop { $0.isWhitespace })
                    if buffer.isEmpty { return visible }
                }
                let found = Self.markers.compactMap { marker in buffer.range(of: marker).map { ($0, marker) } }
                    .min { $0.0.lowerBound < $1.0.lowerBound }
                if let (range, marker) = found {
                    visible += buffer[..<range.lowerBound]
                    buffer = String(buffer[range.upperBound...])
                    state = marker == Self.thinkOpen ? .thinking : .calling
                    continue
                }
                let hold = Self.markers.map { marker in
                    (1..<marker.count).reversed().first { buffer.hasSuffix(marker.prefix($0)) } ?? 0
                }.max() ?? 0
                let cut = buffer.index(buffer.endIndex, offsetBy: -hold)
                visible += buffer[..<cut]
                buffer = String(buffer[cut...])
                if !visible.isEmpty { atStart = false }
                return visible
            }
        }
    }

    /// Text still held back when generation ends (a partial marker that never completed).
    mutating func finish() -> String {
        defer { buffer = "" }
        return state == .visible ? buffer : ""
    }

    /// Removes every think block from finished text (for transcript entries).
    static func removingThinking(from text: String) -> String {
        var result = ""
        var rest = text[...]
        // only think blocks are removed here; a tool call is kept (it is parsed separately)
        while let open = rest.range(of: thinkOpen) {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: thinkClose) else { rest = ""; break }
            rest = rest[close.upperBound...].drop { $0.isWhitespace }
        }
        result += rest
        return result.trimmingLeadingWhitespace()
    }
}

extension String {
    func trimmingLeadingWhitespace() -> String { String(drop { $0.isWhitespace }) }
}
