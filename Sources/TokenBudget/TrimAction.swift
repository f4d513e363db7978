/// One change a ``TranscriptTrimmingPolicy`` made, so the session can record what the model no
/// longer sees.
public enum TrimAction: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The entry was removed from the transcript; `tokens` is what it cost.
    case dropped(entryID: String, kind: BudgetRequest.Entry.Kind, tokens: Int)
    /// The tool output kept its first `keptTokens` tokens of `originalTokens`, followed by a
    /// marker saying how many were omitted.
    case truncated(entryID: String, originalTokens: Int, keptTokens: Int)

    public var description: String {
        switch self {
        case .dropped(let id, let kind, let tokens):
            "dropped the transcript's \(kind.displayName) \(id) (\(NumberText.grouped(tokens)) tokens)"
        case .truncated(let id, let originalTokens, let keptTokens):
            "truncated the transcript's tool output \(id): kept the first \(NumberText.grouped(keptTokens)) "
                + "of \(NumberText.grouped(originalTokens)) tokens"
        }
    }
}
