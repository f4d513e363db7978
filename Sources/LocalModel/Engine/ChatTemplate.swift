/// Renders a conversation into the exact prompt text a model was trained on.
///
/// ChatML (SmolLM2, Qwen2.5, Hermes-style models) and Qwen3 Lantern renders itself; every other
/// layout llama.cpp knows (`ChatTemplate.builtinNames`: Gemma, Llama 3, Mistral, Phi, Granite,
/// DeepSeek, …) is rendered by llama.cpp's own renderer, so the bytes are llama.cpp's. Tool
/// results follow Qwen's layout in every family for now — consecutive results share one user
/// turn, each inside `<tool_response>` tags — which is also the layout Lantern chooses for
/// families that have none of their own (Gemma).
public struct ChatTemplate: Sendable, Hashable {
    /// How a layout is rendered.
    public enum Family: String, Sendable, Hashable {
        /// `<|im_start|>role\n…<|im_end|>` (SmolLM2, Qwen2.5, Hermes-style models).
        case chatml
        /// ChatML with Qwen3's thinking block (`<think>…</think>`) and `/no_think` switch.
        case qwen3
        /// One of llama.cpp's built-in layouts (`name` says which), rendered by llama.cpp.
        case builtin
        /// A template Lantern does not render.
        case unsupported

        /// Recognises the family from a model's embedded template and architecture.
        public init(template: String?, architecture: String) {
            self = ChatTemplate(template: template, architecture: architecture).family
        }
    }

    public let family: Family
    /// The layout's name: "chatml", "qwen3", llama.cpp's name of a built-in layout ("gemma",
    /// "llama3", "mistral-v7", …), or "unsupported".
    public let name: String
    /// Per role, the ends of a content the layout trims (llama.cpp's Gemma and Llama 3 layouts
    /// trim both, Mistral v3 an answer's start), learned from llama.cpp once, so the rendering
    /// matches it byte for byte.
    private let trimming: [ChatMessage.Role: Trimming]
    /// Text that ends the assistant's turn; generation stops on it (empty when the layout ends
    /// a turn with the end-of-sequence token alone).
    public let endOfTurn: String

    public init(family: Family) {
        self.init(family: family, name: family.rawValue)
    }

    private init(family: Family, name: String) {
        self.family = family
        self.name = name
        trimming = family == .builtin ? Self.trimming(name) : [:]
        endOfTurn = family == .builtin ? Self.builtinEndOfTurn(name) : "<|im_end|>"
    }

    /// The layout named `name`: "chatml", "qwen3" or one of `builtinNames` (what llama-server's
    /// `--chat-template` takes). Throws `.unknownChatTemplate` listing the names otherwise.
    public init(named name: String) throws(LocalModelError) {
        switch name {
        case Family.chatml.rawValue: self.init(family: .chatml)
        case Family.qwen3.rawValue: self.init(family: .qwen3)
        case _ where Self.builtinNames.contains(name): self.init(family: .builtin, name: name)
        default: throw .unknownChatTemplate(name: name, known: Self.acceptedNames)
        }
    }

    /// The layout of a model's embedded Jinja template, as llama.cpp's detection reads it; for a
    /// file without one, the layout its architecture is known to use (`gemma3` is Gemma).
    public init(template: String?, architecture: String) {
        if architecture.hasPrefix("qwen3") {
            self.init(family: .qwen3)
        } else if template?.contains("<|im_start|>") ?? false || template == nil && architecture.hasPrefix("qwen") {
            self.init(family: .chatml)
        } else if let template, let name = Self.builtinName(matching: template) {
            self.init(family: .builtin, name: name)
        } else if template == nil, let name = Self.layoutOfArchitecture.first(where: { architecture.hasPrefix($0.key) })?.value {
            self.init(family: .builtin, name: name)
        } else {
            self.init(family: .unsupported)
        }
    }

    /// Every name `init(named:)` accepts.
    public static var acceptedNames: [String] {
        [Family.chatml.rawValue, Family.qwen3.rawValue] + builtinNames.filter { $0 != Family.chatml.rawValue }
    }

    /// llama.cpp's built-in layouts.
    public static var builtinNames: [String] { LlamaChatTemplates.builtinNames }

    /// Layouts of architectures whose files often come without a template (base models).
    private static let layoutOfArchitecture: [String: String] = ["gemma": "gemma", "phi3": "phi3", "granite": "granite"]

    /// What llama.cpp's layout `name` writes after an assistant message, trimmed.
    private static func builtinEndOfTurn(_ name: String) -> String {
        let probe = [ChatMessage(.user, "\u{E000}0\u{E001}"), ChatMessage(.assistant, "\u{E000}1\u{E001}")]
        guard let text = referenceRendering(probe, template: name, addAssistantPrefix: false),
              let after = text.range(of: "\u{E000}1\u{E001}")?.upperBound else { return "" }
        return String(text[after...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

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
        if family == .builtin { return builtinPrompt(messages, addAssistantPrefix: addAssistantPrefix) }
        var prompt = RenderedPrompt()
        for turn in Self.turns(messages) {
            prompt.appendMarkup("<|im_start|>\(turn.role.rawValue)")
            prompt.append("\n", parsesSpecialTokens: turn.parsesSpecialTokens)
            prompt.append(turn.content)
            prompt.appendMarkup("<|im_end|>\n")
        }
        if addAssistantPrefix {
            prompt.appendMarkup("<|im_start|>assistant\n")
            if family == .qwen3 && !thinking { prompt.appendMarkup("<think>\n\n</think>\n\n") }
        }
        return prompt
    }

    /// A turn: its role and its content in runs. Consecutive tool results become one user turn,
    /// each inside `<tool_response>` tags, as Qwen's template writes them.
    private static func turns(_ messages: [ChatMessage]) -> [Turn] {
        var turns: [Turn] = []
        var index = messages.startIndex
        while index < messages.endIndex {
            var content = RenderedPrompt()
            guard messages[index].role == .tool else {
                content.append(messages[index].content, parsesSpecialTokens: messages[index].parsesSpecialTokens)
                turns.append(Turn(role: messages[index].role, content: content, parsesSpecialTokens: messages[index].parsesSpecialTokens))
                index += 1
                continue
            }
            var first = true
            let parses = messages[index].parsesSpecialTokens
            while index < messages.endIndex, messages[index].role == .tool {
                content.append((first ? "" : "\n") + "<tool_response>\n" + messages[index].content + "\n</tool_response>",
                               parsesSpecialTokens: messages[index].parsesSpecialTokens)
                first = false
                index += 1
            }
            turns.append(Turn(role: .user, content: content, parsesSpecialTokens: parses))
        }
        return turns
    }

    /// One turn of the rendered conversation.
    private struct Turn {
        var role: ChatMessage.Role
        var content: RenderedPrompt
        /// The first message's setting, for the layout's own text that opens the content.
        var parsesSpecialTokens: Bool
    }

    /// A built-in layout: llama.cpp renders the turns with a placeholder for each content, and
    /// the text around the placeholders is the markup (so a content's own text never becomes
    /// markup); each placeholder is then replaced by its content.
    private func builtinPrompt(_ messages: [ChatMessage], addAssistantPrefix: Bool) -> RenderedPrompt {
        var turns = Self.turns(messages)
        for index in turns.indices {
            guard let trim = trimming[turns[index].role] else { continue }
            turns[index].content = turns[index].content.trimmingWhitespace(leading: trim.leading, trailing: trim.trailing)
        }
        let placeholders = turns.indices.map { "\u{E000}\($0)\u{E001}" }
        let probe = zip(turns, placeholders).map { ChatMessage($0.role, $1) }
        var prompt = RenderedPrompt()
        guard var rest = Self.referenceRendering(probe, template: name, addAssistantPrefix: addAssistantPrefix)?[...] else { return prompt }
        while let open = rest.firstIndex(of: "\u{E000}"), let close = rest[open...].firstIndex(of: "\u{E001}"),
              let index = Int(rest[rest.index(after: open)..<close]), turns.indices.contains(index) {
            prompt.appendMarkup(String(rest[..<open]))
            prompt.append(turns[index].content)
            rest = rest[rest.index(after: close)...]
        }
        prompt.appendMarkup(String(rest))
        return prompt
    }

    /// Which ends of a content llama.cpp's layout `name` trims.
    private struct Trimming: Sendable, Hashable {
        var leading: Bool
        var trailing: Bool
    }

    /// Per role, which ends of a padded placeholder llama.cpp's layout `name` drops.
    private static func trimming(_ name: String) -> [ChatMessage.Role: Trimming] {
        let roles: [ChatMessage.Role] = [.system, .user, .assistant]
        // Tabs, which no layout writes itself (several write a space before a content they trim).
        let probe = roles.enumerated().map { ChatMessage($1, "\t\u{E000}\($0)\u{E001}\t") }
        guard let text = referenceRendering(probe, template: name, addAssistantPrefix: false) else { return [:] }
        var result: [ChatMessage.Role: Trimming] = [:]
        for (index, role) in roles.enumerated() {
            let placeholder = "\u{E000}\(index)\u{E001}"
            let trim = Trimming(leading: !text.contains("\t" + placeholder), trailing: !text.contains(placeholder + "\t"))
            if trim.leading || trim.trailing { result[role] = trim }
        }
        return result
    }

    /// The built-in layout that renders a probe conversation exactly as `template` does.
    private static func builtinName(matching template: String) -> String? {
        let probe = [ChatMessage(.system, "S"), ChatMessage(.user, "U"), ChatMessage(.assistant, "A"), ChatMessage(.user, "V")]
        guard let expected = referenceRendering(probe, template: template, addAssistantPrefix: true) else { return nil }
        return builtinNames.first { referenceRendering(probe, template: $0, addAssistantPrefix: true) == expected }
    }

    /// llama.cpp's own rendering of `messages` with `template` (a built-in name or a Jinja
    /// template it recognises); nil when it recognises neither. Tests check `ChatTemplate`
    /// against it byte for byte.
    package static func referenceRendering(_ messages: [ChatMessage], template: String, addAssistantPrefix: Bool) -> String? {
        LlamaChatTemplates.render(template, messages: messages.map { ($0.role.rawValue, $0.content) }, addAssistantPrefix: addAssistantPrefix)
    }
}
