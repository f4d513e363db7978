/// Keeps indexed text from acting as conversation markup.
///
/// Tool output is placed between `<tool_response>` tags in the prompt, and the prompt is
/// tokenized with special tokens parsed, so an item whose text holds `</tool_response>`,
/// `<tool_call>` or `<|im_end|>` could close the response or open a call. Every `<` coming
/// from item data becomes `‹` (U+2039): the text still reads the same to the model, but no tag
/// or special token can be spelled with it.
enum TextFraming {
    static func neutralized(_ text: String) -> String {
        text.contains("<") ? text.replacingOccurrences(of: "<", with: "‹") : text
    }

    /// One value on one line of compact output: no line breaks, no column separator.
    static func singleLine(_ text: String) -> String {
        var result = neutralized(text)
        if result.contains(where: \.isNewline) {
            result = result.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return result.replacingOccurrences(of: "|", with: "¦")
    }
}
