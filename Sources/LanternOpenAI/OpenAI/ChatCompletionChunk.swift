/// One server-sent event of a streamed chat completion (`object: "chat.completion.chunk"`):
/// the role first, then the answer's text as it grows, then each call of the client's functions
/// whole in a delta of its own, then an empty delta with `finish_reason` and the sources under
/// `lantern`; with `stream_options.include_usage`, a last chunk with no choices carries the
/// usage, as OpenAI sends it.
struct ChatCompletionChunk: Encodable, Sendable {
    struct Choice: Encodable, Sendable {
        let index = 0
        let delta: Delta
        let finishReason: FinishReason?

        private enum CodingKeys: String, CodingKey { case index, delta, finishReason = "finish_reason" }

        /// `finish_reason` is written as `null` until the last chunk, as OpenAI writes it.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(delta, forKey: .delta)
            try container.encode(finishReason, forKey: .finishReason)
        }
    }

    struct Delta: Encodable, Sendable {
        var role: String? = nil
        var content: String? = nil
        var toolCalls: [FunctionCall]? = nil

        private enum CodingKeys: String, CodingKey { case role, content, toolCalls = "tool_calls" }
    }

    let id: String
    let object = "chat.completion.chunk"
    let created: Int
    let model: String
    let choices: [Choice]
    var usage: TokenUsage? = nil
    var lantern: AnswerExtension? = nil

    /// The event's bytes: `data: JSON` and a blank line.
    var event: [UInt8] {
        let body = HTTPResponse.json(self).body
        return Array("data: ".utf8) + body + Array("\n\n".utf8)
    }
}
