import Foundation
import LocalModel

/// The body of `POST /v1/chat/completions`, as far as this server reads it: the model, the
/// messages (`ConversationReader` makes them the session's conversation), the client's
/// function tools and `tool_choice`, streaming, the token cap. Sampling fields (temperature,
/// top_p, …) are accepted and not used: answers are greedy, as `ask`'s are. What it cannot
/// honour (`n` above 1, a tool that is no function) is refused by name rather than silently
/// dropped, so a client never takes a reply for what it did not ask.
struct ChatCompletionRequest: Decodable {
    struct Message: Decodable {
        let role: String
        let content: Content?
        /// An assistant message's calls of the client's functions.
        let toolCalls: [ToolCall]?
        /// A tool message's answer to one of those calls.
        let toolCallID: String?

        private enum CodingKeys: String, CodingKey {
            case role, content
            case toolCalls = "tool_calls"
            case toolCallID = "tool_call_id"
        }
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

    /// A call as an assistant message carries it: the arguments are JSON text.
    struct ToolCall: Decodable {
        struct Function: Decodable {
            let name: String
            let arguments: String
        }
        let id: String
        let type: String?
        let function: Function
    }

    /// One of the client's tools. `parameters` is read again from the body's text by
    /// `decode`, which keeps the order of its properties (the order the model writes them in).
    struct Tool: Decodable {
        struct Function: Decodable {
            let name: String
            let description: String?
            var parameters: JSONValue?
        }
        let type: String
        var function: Function?
    }

    /// `tool_choice`: a mode, or `{"type": "function", "function": {"name": …}}`.
    enum ToolChoice: Decodable {
        case mode(String)
        case function(String)

        private struct Named: Decodable {
            struct Function: Decodable { let name: String }
            let type: String
            let function: Function
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let mode = try? container.decode(String.self) {
                self = .mode(mode)
            } else {
                self = .function(try container.decode(Named.self).function.name)
            }
        }
    }

    struct StreamOptions: Decodable {
        let includeUsage: Bool?

        private enum CodingKeys: String, CodingKey { case includeUsage = "include_usage" }
    }

    let model: String
    let messages: [Message]
    let stream: Bool?
    let streamOptions: StreamOptions?
    let maxTokens: Int?
    let maxCompletionTokens: Int?
    let n: Int?
    var tools: [Tool]?
    let toolChoice: ToolChoice?
    /// Accepted and not needed: a round holds one call (`GenerationOptions.maximumToolCallsPerRound`),
    /// so calls are never parallel.
    let parallelToolCalls: Bool?

    private enum CodingKeys: String, CodingKey {
        case model, messages, stream, n, tools
        case streamOptions = "stream_options"
        case maxTokens = "max_tokens"
        case maxCompletionTokens = "max_completion_tokens"
        case toolChoice = "tool_choice"
        case parallelToolCalls = "parallel_tool_calls"
    }

    /// Decodes `body`, refusing JSON that is no chat request with the field at fault.
    static func decode(_ body: [UInt8]) throws(OpenAIError) -> ChatCompletionRequest {
        var request: ChatCompletionRequest
        do {
            request = try JSONDecoder().decode(Self.self, from: Data(body))
        } catch let error as DecodingError {
            throw Self.refusal(error)
        } catch {
            throw .badRequest("the body is not a chat completion request: \(error)")
        }
        // the decoder keeps no key order; the schemas' properties are read again in the order written
        if let tools = request.tools, !tools.isEmpty,
           let ordered = try? JSONValue(parsing: String(decoding: body, as: UTF8.self), duplicateKeys: .lastWins) {
            for index in tools.indices where tools[index].function?.parameters != nil {
                request.tools?[index].function?.parameters = ordered["tools"]?[index]?["function"]?["parameters"]
            }
        }
        return request
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
        case is [Message].Type, is [Part].Type, is [Tool].Type, is [ToolCall].Type: "an array"
        default: "an object"
        }
    }
}
