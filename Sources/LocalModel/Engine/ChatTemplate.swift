/// Renders a conversation into the exact prompt text a model was trained on.
///
/// ChatML (SmolLM2, Qwen2.5, Hermes-style models) and Qwen3 Lantern renders itself; every other
/// layout llama.cpp knows (`ChatTemplate.builtinNames`: Gemma, Llama 3, Mistral, Phi, Granite,
/// DeepSeek, …) is rendered by llama.cpp's own renderer, so the bytes are llama.cpp's. Where
/// the tool definitions go, how calls and results are written and how thinking is switched is
/// the family's `toolLayout` (one type per family, in Session/ToolLayouts); families without a
/// layout of their own (Gemma among them) use Hermes's, which any instruction-tuned model follows.
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
    private let trimming: [String: Trimming]
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
            self.init(family: .builtin, name: Self.refined(name, template: template))
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

    /// The families with a tool layout of their own, by layout name; every other layout uses
    /// `HermesToolLayout`. Adding a family is a type in Session/ToolLayouts and a line here.
    static let toolLayouts: [String: any ToolLayout] = [
        Family.qwen3.rawValue: HermesToolLayout(thinking: .qwen3),
        "llama3": Llama3ToolLayout(),
        "mistral-v3": MistralToolLayout.v3, "mistral-v3-tekken": MistralToolLayout.v3,
        "mistral-v7": MistralToolLayout.v7, "mistral-v7-tekken": MistralToolLayout.v7,
        "phi3": Phi4ToolLayout(),
        "granite": GraniteToolLayout(),
        "deepseek3": DeepSeekToolLayout(),
    ]

    /// One of each layout Lantern writes (Hermes first): what the fuzz targets and tests go over.
    public static var toolLayoutsInUse: [any ToolLayout] {
        var seen: Set<String> = []
        return ([HermesToolLayout()] + toolLayouts.values.sorted { $0.name < $1.name }).filter { seen.insert($0.name).inserted }
    }

    /// How this family writes tools, calls, results and thinking.
    public var toolLayout: any ToolLayout { Self.toolLayouts[name] ?? HermesToolLayout() }

    /// The system turn's text: the instructions, what the layout writes of the tools there, and
    /// the family's switch when thinking is off (Qwen3's `/no_think`).
    public func systemText(instructions: String, tools: [ToolDefinition], thinking: Bool) -> String {
        var text = toolLayout.systemText(instructions: instructions, tools: tools)
        if !thinking, let off = toolLayout.thinking?.offSwitch {
            text += text.isEmpty ? off.trimmingCharacters(in: .whitespaces) : off
        }
        return text
    }

    /// Layouts of architectures whose files often come without a template (base models).
    private static let layoutOfArchitecture: [String: String] = ["gemma": "gemma", "phi3": "phi3", "granite": "granite"]

    /// What llama.cpp's layout `name` writes after an assistant message, trimmed.
    private static func builtinEndOfTurn(_ name: String) -> String {
        let probe = [ChatMessage(.user, "\u{E000}0\u{E001}"), ChatMessage(.assistant, "\u{E000}1\u{E001}")]
        guard let text = referenceRendering(probe, template: name, addAssistantPrefix: false),
              let after = text.range(of: "\u{E000}1\u{E001}")?.upperBound else { return "" }
        return String(text[after...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The prompt for `messages`, optionally ending with an open assistant turn; `tools` are
    /// placed where the family's layout places them (a system message, when there is one, holds
    /// `systemText`). With `thinking` off, an assistant turn of a thinking family starts with an
    /// empty think block, as Qwen's own template does for `enable_thinking=false`, so the model
    /// answers (or calls) at once.
    public func render(_ messages: [ChatMessage], tools: [ToolDefinition] = [], addAssistantPrefix: Bool = true, thinking: Bool = true) -> String {
        renderedPrompt(messages, tools: tools, addAssistantPrefix: addAssistantPrefix, thinking: thinking).text
    }

    /// `render` in runs: the template's markup, and each message's content marked with whether
    /// its control-token spellings may become control tokens (`ChatMessage.parsesSpecialTokens`).
    ///
    /// A content run begins right after a control token and ends right before one
    /// (`<|im_start|>user` | `\n…content…` | `<|im_end|>`), where the tokenizer splits the text
    /// anyway, so ordinary content gets exactly the tokens it would get in one string; the
    /// template text inside it (`\n`, `<tool_response>`) spells no control token.
    public func renderedPrompt(_ messages: [ChatMessage], tools: [ToolDefinition] = [], addAssistantPrefix: Bool = true,
                               thinking: Bool = true) -> RenderedPrompt {
        let layout = toolLayout
        let turns = layout.turns(messages, tools: tools)
        var prompt = family == .builtin ? builtinPrompt(turns, addAssistantPrefix: addAssistantPrefix) : chatMLPrompt(turns, addAssistantPrefix: addAssistantPrefix)
        if addAssistantPrefix, !thinking, let block = layout.thinking?.emptyBlock { prompt.appendMarkup(block) }
        return prompt
    }

    /// ChatML, which Lantern writes itself.
    private func chatMLPrompt(_ turns: [ChatTurn], addAssistantPrefix: Bool) -> RenderedPrompt {
        var prompt = RenderedPrompt()
        for turn in turns {
            guard let role = turn.role else {
                prompt.append(turn.content)
                continue
            }
            prompt.appendMarkup("<|im_start|>\(role)")
            prompt.append("\n", parsesSpecialTokens: turn.parsesSpecialTokens)
            prompt.append(turn.content)
            prompt.appendMarkup("<|im_end|>\n")
        }
        if addAssistantPrefix { prompt.appendMarkup("<|im_start|>assistant\n") }
        return prompt
    }

    /// A built-in layout: llama.cpp renders the turns with a placeholder for each content, and
    /// the text around the placeholders is the markup (so a content's own text never becomes
    /// markup); each placeholder is then replaced by its content. A turn of the layout's own
    /// text (no role) goes where the turns before it end: where llama.cpp's rendering of those
    /// turns alone stops.
    private func builtinPrompt(_ turns: [ChatTurn], addAssistantPrefix: Bool) -> RenderedPrompt {
        var roleTurns: [(role: String, content: RenderedPrompt)] = []
        var insertions: [(afterTurns: Int, content: RenderedPrompt)] = []
        for turn in turns {
            guard let role = turn.role else {
                insertions.append((roleTurns.count, turn.content))
                continue
            }
            // a role of the layout's own (Llama 3's `ipython`) is trimmed as a user's content
            let isOwnRole = ChatMessage.Role(rawValue: role) == nil
            let trim = trimming[role] ?? (isOwnRole ? trimming[ChatMessage.Role.user.rawValue] : nil)
            roleTurns.append((role, trim.map { turn.content.trimmingWhitespace(leading: $0.leading, trailing: $0.trailing) } ?? turn.content))
        }
        let probe = roleTurns.indices.map { (role: roleTurns[$0].role, content: "\u{E000}\($0)\u{E001}") }
        var prompt = RenderedPrompt()
        guard let text = LlamaChatTemplates.render(name, messages: probe, addAssistantPrefix: addAssistantPrefix) else { return prompt }
        // where each insertion goes: the end of the turns before it, as llama.cpp renders them alone
        let insertionPoints = insertions.map { insertion -> String.Index in
            guard insertion.afterTurns > 0 else { return text.startIndex }
            if let alone = LlamaChatTemplates.render(name, messages: Array(probe[..<insertion.afterTurns]), addAssistantPrefix: false),
               text.hasPrefix(alone) {
                return text.index(text.startIndex, offsetBy: alone.count)
            }
            let placeholder = "\u{E000}\(insertion.afterTurns - 1)\u{E001}"
            return text.range(of: placeholder)?.upperBound ?? text.endIndex
        }
        var rest = text[...]
        var pending = Array(zip(insertionPoints, insertions.map(\.content)))
        func insert(upTo end: String.Index) {
            while let (point, content) = pending.first, point <= end {
                prompt.appendMarkup(String(rest[..<max(point, rest.startIndex)]))
                rest = rest[max(point, rest.startIndex)...]
                prompt.append(content)
                pending.removeFirst()
            }
        }
        while let open = rest.firstIndex(of: "\u{E000}"), let close = rest[open...].firstIndex(of: "\u{E001}"),
              let index = Int(rest[rest.index(after: open)..<close]), roleTurns.indices.contains(index) {
            insert(upTo: open)
            prompt.appendMarkup(String(rest[..<open]))
            prompt.append(roleTurns[index].content)
            rest = rest[rest.index(after: close)...]
        }
        insert(upTo: text.endIndex)
        prompt.appendMarkup(String(rest))
        return prompt
    }

    /// Which ends of a content llama.cpp's layout `name` trims.
    private struct Trimming: Sendable, Hashable {
        var leading: Bool
        var trailing: Bool
    }

    /// Per role, which ends of a padded placeholder llama.cpp's layout `name` drops.
    private static func trimming(_ name: String) -> [String: Trimming] {
        let roles: [ChatMessage.Role] = [.system, .user, .assistant]
        // Tabs, which no layout writes itself (several write a space before a content they trim).
        let probe = roles.enumerated().map { ChatMessage($1, "\t\u{E000}\($0)\u{E001}\t") }
        guard let text = referenceRendering(probe, template: name, addAssistantPrefix: false) else { return [:] }
        var result: [String: Trimming] = [:]
        for (index, role) in roles.enumerated() {
            let placeholder = "\u{E000}\(index)\u{E001}"
            let trim = Trimming(leading: !text.contains("\t" + placeholder), trailing: !text.contains(placeholder + "\t"))
            if trim.leading || trim.trailing { result[role.rawValue] = trim }
        }
        return result
    }

    /// llama.cpp's detection names Mistral v7 for every template with `[SYSTEM_PROMPT]`, but
    /// the templates that write no space after the markers (`'[INST]' + message['content']`,
    /// Mistral Small 3.1's) are the Tekken layout, which llama.cpp has under its own name.
    private static func refined(_ name: String, template: String) -> String {
        name == "mistral-v7" && template.contains("'[INST]' + message") ? "mistral-v7-tekken" : name
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
