import Lantern

/// OpenAI's `usage`: the prompt's tokens over every round (tool rounds included) and the
/// tokens generated.
struct TokenUsage: Encodable, Sendable {
    let promptTokens: Int
    let completionTokens: Int
    let totalTokens: Int

    init(_ tokens: AnswerReport.Tokens) {
        promptTokens = tokens.prompt
        completionTokens = tokens.generated
        totalTokens = tokens.prompt + tokens.generated
    }

    private enum CodingKeys: String, CodingKey {
        case promptTokens = "prompt_tokens", completionTokens = "completion_tokens", totalTokens = "total_tokens"
    }
}
