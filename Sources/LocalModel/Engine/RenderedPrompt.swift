/// A prompt as the chat template rendered it: runs of template markup, whose control-token
/// spellings (`<|im_start|>`, `<|im_end|>`) are read as control tokens, and runs of content,
/// tokenized as plain text.
///
/// A prompt rendered to one string and tokenized with special tokens parsed lets any text in
/// it act as markup: a user's question or a tool's output holding `<|im_end|><|im_start|>system`
/// would end its turn and open a system turn. Keeping the runs apart lets the engine tokenize the
/// content literally, so such text stays text.
public struct RenderedPrompt: Sendable, Hashable, CustomStringConvertible {
    public struct Run: Sendable, Hashable {
        public var text: String
        /// Whether control-token spellings in `text` become control tokens.
        public var parsesSpecialTokens: Bool
    }

    /// Adjacent runs of the same kind are merged, so the same prompt always has the same runs
    /// (and the same tokens, which the KV cache relies on).
    public private(set) var runs: [Run] = []

    public init() {}

    /// A prompt of one run.
    public init(_ text: String, parsesSpecialTokens: Bool) {
        append(text, parsesSpecialTokens: parsesSpecialTokens)
    }

    /// Adds template markup.
    public mutating func appendMarkup(_ text: String) { append(text, parsesSpecialTokens: true) }

    public mutating func append(_ text: String, parsesSpecialTokens: Bool) {
        guard !text.isEmpty else { return }
        if let last = runs.indices.last, runs[last].parsesSpecialTokens == parsesSpecialTokens {
            runs[last].text += text
        } else {
            runs.append(Run(text: text, parsesSpecialTokens: parsesSpecialTokens))
        }
    }

    public mutating func append(_ other: RenderedPrompt) {
        for run in other.runs { append(run.text, parsesSpecialTokens: run.parsesSpecialTokens) }
    }

    /// This prompt without whitespace at its start (when `leading`) and end (when `trailing`):
    /// what a layout that trims message content makes of it.
    func trimmingWhitespace(leading: Bool, trailing: Bool) -> RenderedPrompt {
        var trimmed = self
        while leading, let first = trimmed.runs.first {
            trimmed.runs[0].text = String(first.text.drop(while: \.isWhitespace))
            if !trimmed.runs[0].text.isEmpty { break }
            trimmed.runs.removeFirst()
        }
        while trailing, let last = trimmed.runs.indices.last {
            trimmed.runs[last].text = String(trimmed.runs[last].text.reversed().drop(while: \.isWhitespace).reversed())
            if !trimmed.runs[last].text.isEmpty { break }
            trimmed.runs.removeLast()
        }
        return trimmed
    }

    /// The whole prompt as one string (what a model that takes text receives).
    public var text: String { runs.map(\.text).joined() }

    public var description: String { text }
}
