/// Separates what the user should read from what the model wrote while generating.
///
/// A thinking family writes its think block (Qwen3's `<think>…</think>`, empty with
/// `/no_think`) before its answer, and any model may start a call after some text, in the
/// family's own spelling (`<tool_call>` in Hermes) or another it writes (a bare or fenced
/// `{"name": …}`, `ToolCallSyntax.openings`). Both are hidden from the response content, and so
/// is the family's framing of tool results (`<tool_response>`), which a small model echoes;
/// text is held back while it could still be the start of any marker, so a stream never shows
/// half a tag or the first characters of a call.
struct ResponseTextFilter {
    private enum State { case visible, thinking, calling }

    private let thinking: ThinkingSyntax?
    private let markers: [LenientPattern]
    /// Markers removed without changing state (the result framing).
    private let framing: Set<LenientPattern>

    /// - Parameter readsOtherSpellings: whether calls in the other spellings are hidden too;
    ///   off for a structured answer, whose JSON may hold `{"name": …}` objects of its own.
    init(layout: any ToolLayout, readsOtherSpellings: Bool = true) {
        thinking = layout.thinking
        framing = Set(layout.resultFraming.map(LenientPattern.init))
        let calls = readsOtherSpellings ? layout.callSyntax.openings : [LenientPattern(layout.callSyntax.trigger)]
        markers = (layout.thinking.map { [LenientPattern($0.open)] } ?? []) + calls + framing
    }

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
                let thinkClose = thinking?.close ?? ""
                guard let close = buffer.range(of: thinkClose) else {
                    buffer = String(buffer.suffix(thinkClose.count - 1))
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
                let found = markers.firstMatch(in: buffer[...])
                if let (range, marker) = found.complete {
                    visible += String(buffer.unicodeScalars[..<range.lowerBound])
                    buffer = String(buffer.unicodeScalars[range.upperBound...])
                    if framing.contains(marker) { continue }
                    state = marker.text == thinking?.open ? .thinking : .calling
                    continue
                }
                let cut = found.partialStart ?? buffer.endIndex
                visible += String(buffer.unicodeScalars[..<cut])
                buffer = String(buffer.unicodeScalars[cut...])
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
    func removingThinking(from text: String) -> String {
        guard let thinking else { return text.trimmingLeadingWhitespace() }
        var result = ""
        var rest = text[...]
        // only think blocks are removed here; a tool call is kept (it is parsed separately)
        while let open = rest.range(of: thinking.open) {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: thinking.close) else { rest = ""; break }
            rest = rest[close.upperBound...].drop { $0.isWhitespace }
        }
        result += rest
        return result.trimmingLeadingWhitespace()
    }
}

extension String {
    func trimmingLeadingWhitespace() -> String { String(drop { $0.isWhitespace }) }
}
