import Lantern

/// OpenAI's `usage`: the prompt's tokens over every round (tool rounds included; the part found
/// in the KV cache under `prompt_tokens_details.cached_tokens`) and the tokens generated over
/// every round (the search calls' included, as a reasoning model's reasoning is).
struct TokenUsage: Encodable, Sendable {
    struct PromptDetails: Encodable, Sendable {
        let cachedTokens: Int

        private enum CodingKeys: String, CodingKey { case cachedTokens = "cached_tokens" }
    }

    let promptTokens: Int
    let completionTokens: Int
    let totalTokens: Int
    let promptTokensDetails: PromptDetails

    init(_ tokens: AnswerReport.Tokens) {
        promptTokens = tokens.prompt
        completionTokens = tokens.generated
        totalTokens = tokens.prompt + tokens.generated
        promptTokensDetails = PromptDetails(cachedTokens: tokens.cached)
    }

    private enum CodingKeys: String, CodingKey {
        case promptTokens = "prompt_tokens", completionTokens = "completion_tokens", totalTokens = "total_tokens"
        case promptTokensDetails = "prompt_tokens_details"
    }
}
