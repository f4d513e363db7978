/// Keeps text that comes from outside the conversation — tool outputs, indexed items — from
/// acting as prompt markup.
///
/// A tool's output is placed between `<tool_response>` tags, so output holding
/// `</tool_response>`, `<tool_call>` or `<|im_end|><|im_start|>system` could close the response,
/// open a call or start a system turn. Every `<` of such text becomes `‹` (U+2039): the text
/// still reads the same to the model, but no tag or control token can be spelled with it.
/// `LanguageModelSession` applies this to every tool's output, whatever the tool; the search
/// tool applies the same to indexed text it quotes.
public enum PromptMarkup {
    /// `text` with every `<` replaced by `‹`.
    public static func neutralized(_ text: String) -> String {
        text.contains("<") ? text.replacingOccurrences(of: "<", with: "‹") : text
    }
}
