/// One turn of a conversation as the chat template sees it.
public struct ChatMessage: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable { case system, user, assistant, tool }

    public var role: Role
    public var content: String

    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }
}
