/// Renders a conversation into the exact prompt text a model was trained on.
///
/// Lantern renders ChatML itself rather than running the file's Jinja template: it is the
/// layout of SmolLM2, Qwen2.5 and Qwen3, llama.cpp's `llama_chat_apply_template` produces the
/// same bytes for it (tested), and tool results follow Qwen's layout — consecutive tool
/// results share one user turn, each inside `<tool_response>` tags.
public struct ChatTemplate: Sendable, Hashable {
    /// Prompt layouts Lantern can render.
    public enum Family: String, Sendable, Hashable {
        /// `<|im_start|>role\n…<|im_end|>` (SmolLM2, Qwen2.5, Hermes-style models).
        case chatml
        /// ChatML with Qwen3's thinking block (`<think>…</think>`) and `/no_think` switch.
        case qwen3
        /// A template Lantern does not render.
        case unsupported

        /// Recognises the family from a model's embedded template and architecture.
        public init(template: String?, architecture: String) {
            if architecture.hasPrefix("qwen3") {
                self = .qwen3
            } else if template?.contains("<|im_start|>") ?? false || template == nil && architecture.hasPrefix("qwen") {
                self = .chatml
            } else {
                self = .unsupported
            }
        }
    }

    public let family: Family

    public init(family: Family) { self.family = family }

    /// Text that ends the assistant's turn; generation stops on it.
    public var endOfTurn: String { "<|im_end|>" }

    /// The prompt for `messages`, optionally ending with an open assistant turn. With
    /// `thinking` off, a Qwen3 assistant turn starts with an empty think block, as Qwen's own
    /// template does for `enable_thinking=false`, so the model answers (or calls) at once.
    public func render(_ messages: [ChatMessage], addAssistantPrefix: Bool = true, thinking: Bool = true) -> String {
        renderedPrompt(messages, addAssistantPrefix: addAssistantPrefix, thinking: thinking).text
    }

    /// `render` in runs: the template's markup, and each message's content marked with whether
    /// its control-token spellings may become control tokens (`ChatMessage.parsesSpecialTokens`).
    ///
    /// A content run begins right after a control token and ends right before one
    /// (`<|im_start|>user` | `\n…content…` | `<|im_end|>`), where the tokenizer splits the text
    /// anyway, so ordinary content gets exactly the tokens it would get in one string; the
    /// template text inside it (`\n`, `<tool_response>`) spells no control token.
    public func renderedPrompt(_ messages: [ChatMessage], addAssistantPrefix: Bool = true, thinking: Bool = true) -> RenderedPrompt {
        var prompt = RenderedPrompt()
        var index = messages.startIndex
        while index < messages.endIndex {
            let message = messages[index]
            if message.role == .tool {
                // consecutive tool results share one user turn, one `<tool_response>` each
                prompt.appendMarkup("<|im_start|>user")
                while index < messages.endIndex, messages[index].role == .tool {
                    prompt.append("\n<tool_response>\n" + messages[index].content + "\n</tool_response>",
                                  parsesSpecialTokens: messages[index].parsesSpecialTokens)
                    index += 1
                }
                prompt.appendMarkup("<|im_end|>\n")
                continue
            }
            prompt.appendMarkup("<|im_start|>\(message.role.rawValue)")
            prompt.append("\n" + message.content, parsesSpecialTokens: message.parsesSpecialTokens)
            prompt.appendMarkup("<|im_end|>\n")
            index += 1
        }
        if addAssistantPrefix {
            prompt.appendMarkup("<|im_start|>assistant\n")
            if family == .qwen3 && !thinking { prompt.appendMarkup("<think>\n\n</think>\n\n") }
        }
        return prompt
    }
}
