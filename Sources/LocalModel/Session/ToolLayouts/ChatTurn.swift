/// One turn as a template renders it: a role its markup names and the content in runs.
public struct ChatTurn: Sendable, Hashable {
    /// The role the template writes ("user", "ipython", "tool_response"); nil for text of the
    /// layout's own that stands between turns (Mistral's `[TOOL_RESULTS]…[/TOOL_RESULTS]`).
    public var role: String?
    public var content: RenderedPrompt
    /// The first message's setting, for the layout's own text that opens the content.
    public var parsesSpecialTokens: Bool

    public init(role: String?, content: RenderedPrompt, parsesSpecialTokens: Bool = true) {
        self.role = role
        self.content = content
        self.parsesSpecialTokens = parsesSpecialTokens
    }

    /// A turn of one message's content.
    public init(role: String, _ message: ChatMessage) {
        var content = RenderedPrompt()
        content.append(message.content, parsesSpecialTokens: message.parsesSpecialTokens)
        self.init(role: role, content: content, parsesSpecialTokens: message.parsesSpecialTokens)
    }

    /// Text of the layout's own between turns: `content` (one message's) between two pieces
    /// of markup, as a result in Mistral's `[TOOL_RESULTS]` or DeepSeek's output tokens.
    public static func markup(_ open: String, _ content: String, parsesSpecialTokens: Bool, _ close: String) -> ChatTurn {
        var prompt = RenderedPrompt(open, parsesSpecialTokens: true)
        prompt.append(content, parsesSpecialTokens: parsesSpecialTokens)
        prompt.appendMarkup(close)
        return ChatTurn(role: nil, content: prompt)
    }
}
