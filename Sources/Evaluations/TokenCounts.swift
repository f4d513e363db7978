import LocalModel

/// The tokens a response cost, summed over its generation rounds.
public struct TokenCounts: Sendable, Hashable, Codable {
    /// Prompt tokens over all rounds (each tool round re-sends the conversation).
    public var prompt: Int
    /// Of those, tokens found in the KV cache and not decoded again.
    public var cached: Int
    public var generated: Int

    public init(prompt: Int = 0, cached: Int = 0, generated: Int = 0) {
        self.prompt = prompt
        self.cached = cached
        self.generated = generated
    }

    public init(_ usage: LanguageModelSession.Usage) {
        self.init(prompt: usage.promptTokens, cached: usage.cachedTokens, generated: usage.generatedTokens)
    }

    static func + (lhs: TokenCounts, rhs: TokenCounts) -> TokenCounts {
        TokenCounts(prompt: lhs.prompt + rhs.prompt, cached: lhs.cached + rhs.cached, generated: lhs.generated + rhs.generated)
    }
}
