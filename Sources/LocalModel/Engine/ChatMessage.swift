/// One turn of a conversation as the chat template sees it.
public struct ChatMessage: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable { case system, user, assistant, tool }

    public var role: Role
    public var content: String
    /// Whether control-token spellings in `content` (`<|im_end|>`) become control tokens when
    /// the prompt is tokenized. Sessions turn it off for the user's prompt and tool outputs, so
    /// that text cannot end its turn or open another (see `RenderedPrompt`).
    public var parsesSpecialTokens: Bool

    public init(_ role: Role, _ content: String, parsesSpecialTokens: Bool = true) {
        self.role = role
        self.content = content
        self.parsesSpecialTokens = parsesSpecialTokens
    }
}
