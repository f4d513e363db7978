import Foundation

/// The body of `POST /v1/chat/completions`, as far as this server reads it: the model, the
/// messages (the last user message is the question), streaming, the token cap. Sampling fields
/// (temperature, top_p, …) are accepted and not used: answers are greedy, as `ask`'s are.
/// What it cannot honour (`n` above 1, the client's own `tools`) is refused by name rather than
/// silently dropped, so a client never takes a reply for what it did not ask.
struct ChatCompletionRequest: Decodable {
    struct Message: Decodable {
        let role: String
        let content: Content?
    }

    /// A message's content: a string, or OpenAI's list of parts.
    enum Content: Decodable {
        case text(String)
        case parts([Part])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .parts(try container.decode([Part].self))
            }
        }
    }

    struct Part: Decodable {
        let type: String
        let text: String?
    }

    struct StreamOptions: Decodable {
        let includeUsage: Bool?

        private enum CodingKeys: String, CodingKey { case includeUsage = "include_usage" }
    }

    /// Any JSON value, read past unexamined: only whether `tools` has entries matters here.
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    let model: String
    let messages: [Message]
    let stream: Bool?
    let streamOptions: StreamOptions?
    let maxTokens: Int?
    let maxCompletionTokens: Int?
    let n: Int?
    let tools: [Ignored]?

    private enum CodingKeys: String, CodingKey {
        case model, messages, stream, n, tools
        case streamOptions = "stream_options"
        case maxTokens = "max_tokens"
        case maxCompletionTokens = "max_completion_tokens"
    }

    /// Decodes `body`, refusing JSON that is no chat request with the field at fault.
    static func decode(_ body: [UInt8]) throws(OpenAIError) -> ChatCompletionRequest {
        do {
            return try JSONDecoder().decode(Self.self, from: Data(body))
        } catch let error as DecodingError {
            throw Self.refusal(error)
        } catch {
            throw .badRequest("the body is not a chat completion request: \(error)")
        }
    }

    /// The question: the text of the last user message. Earlier turns are not answered from:
    /// each request is a fresh search over the index, as each `ask` question is.
    func question() throws(OpenAIError) -> String {
        guard let index = messages.lastIndex(where: { $0.role == "user" }) else {
            throw .badRequest("the messages have no user message to answer", param: "messages")
        }
        let text: String
        switch messages[index].content {
        case .text(let string)?:
            text = string
        case .parts(let parts)?:
            if let other = parts.first(where: { $0.type != "text" }) {
                throw .badRequest("only text parts are answered, not '\(other.type)'", param: "messages[\(index)].content")
            }
            text = parts.compactMap(\.text).joined(separator: "\n")
        case nil:
            text = ""
        }
        let question = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !question.isEmpty else { throw .badRequest("the last user message is empty", param: "messages[\(index)].content") }
        return question
    }

    /// The cap on each generation round's tokens: the request's (`max_completion_tokens`, or
    /// the older `max_tokens`), which may not exceed the server's `limit`, or the limit.
    func maximumTokens(limit: Int) throws(OpenAIError) -> Int {
        let (asked, param) = maxCompletionTokens.map { ($0, "max_completion_tokens") } ?? (maxTokens, "max_tokens")
        guard let asked else { return limit }
        guard (1...limit).contains(asked) else {
            throw .badRequest("\(param) is \(asked); this server takes 1 to \(limit) (ask serve --max-tokens)", param: param)
        }
        return asked
    }

    /// Refuses what the server would otherwise not honour.
    func checkSupported() throws(OpenAIError) {
        if let n, n != 1 { throw .badRequest("n is \(n); this server writes one choice per request", param: "n") }
        if let tools, !tools.isEmpty {
            throw .badRequest("tools from the client are not offered yet; the server's model searches the index with its own tools", param: "tools")
        }
    }

    /// A 400 naming the field the decoder stopped at.
    private static func refusal(_ error: DecodingError) -> OpenAIError {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            (context.codingPath + (key.map { [$0] } ?? [])).reduce("") { path, key in
                key.intValue.map { "\(path)[\($0)]" } ?? (path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)")
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context, key)
            return .badRequest("the request has no '\(field)'", param: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context)
            return .badRequest("'\(field)' must be \(Self.name(of: type))", param: field)
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .badRequest("the body is not JSON")
        case .dataCorrupted(let context):
            let field = path(context)
            return .badRequest("'\(field)' is not valid: \(context.debugDescription)", param: field)
        @unknown default:
            return .badRequest("the body is not a chat completion request: \(error)")
        }
    }

    /// What a client should send, in JSON's words.
    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is [Message].Type, is [Part].Type, is [Ignored].Type: "an array"
        default: "an object"
        }
    }
}
