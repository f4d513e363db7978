/// The body of a chat completion that is not streamed (`object: "chat.completion"`): one
/// choice with the answer, its citation markers written as source numbers, the token usage, and
/// the sources under `lantern` (`AnswerExtension`).
struct ChatCompletion: Encodable, Sendable {
    struct Choice: Encodable, Sendable {
        let index = 0
        let message: Message
        let finishReason = "stop"

        private enum CodingKeys: String, CodingKey { case index, message, finishReason = "finish_reason" }
    }

    struct Message: Encodable, Sendable {
        let role = "assistant"
        let content: String
    }

    let id: String
    let object = "chat.completion"
    let created: Int
    let model: String
    let choices: [Choice]
    let usage: TokenUsage
    let lantern: AnswerExtension
}
