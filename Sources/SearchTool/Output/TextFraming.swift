import LocalModel

/// Keeps indexed text from acting as conversation markup.
///
/// An item whose text holds `</tool_response>`, `<tool_call>` or `<|im_end|>` could close the
/// response or open a call. The session neutralizes every tool's output (`PromptMarkup`); the
/// tool applies the same to the item data it quotes, so its output is safe in any host.
enum TextFraming {
    static func neutralized(_ text: String) -> String { PromptMarkup.neutralized(text) }

    /// One value on one line of compact output: no line breaks, no column separator.
    static func singleLine(_ text: String) -> String {
        var result = neutralized(text)
        if result.contains(where: \.isNewline) {
            result = result.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return result.replacingOccurrences(of: "|", with: "¦")
    }
}
