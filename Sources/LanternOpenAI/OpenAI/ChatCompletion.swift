/// The body of a chat completion that is not streamed (`object: "chat.completion"`): one
/// choice with the answer, its citation markers written as source numbers, or the calls of the
/// client's functions the model made; why it ended; the token usage; and the sources under
/// `lantern` (`AnswerExtension`).
struct ChatCompletion: Encodable, Sendable {
    struct Choice: Encodable, Sendable {
        let index = 0
        let message: Message
        let finishReason: FinishReason

        private enum CodingKeys: String, CodingKey { case index, message, finishReason = "finish_reason" }
    }

    struct Message: Encodable, Sendable {
        let role = "assistant"
        /// The answer; null when the model wrote nothing before its calls, as OpenAI sends it.
        let content: String?
        let toolCalls: [FunctionCall]?

        private enum CodingKeys: String, CodingKey { case role, content, toolCalls = "tool_calls" }

        /// `content` is written as `null` rather than left out; `tool_calls` only when there are calls.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(role, forKey: .role)
            try container.encode(content, forKey: .content)
            try container.encodeIfPresent(toolCalls, forKey: .toolCalls)
        }
    }

    let id: String
    let object = "chat.completion"
    let created: Int
    let model: String
    let choices: [Choice]
    let usage: TokenUsage
    let lantern: AnswerExtension
}
