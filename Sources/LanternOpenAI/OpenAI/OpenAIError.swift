/// A refusal or failure as OpenAI's API sends it: an HTTP status and the body
/// `{"error": {"message", "type", "param", "code"}}`, which OpenAI's clients turn into their
/// typed exceptions (`BadRequestError`, `AuthenticationError`, `RateLimitError`, …). The types
/// are the ones llama-server uses, so a client written against either reads both alike.
public struct OpenAIError: Error, Sendable, Encodable, CustomStringConvertible {
    public let status: Int
    public let message: String
    public let type: String
    /// The request field at fault (`messages`, `model`, `max_tokens`), when one is.
    public let param: String?
    public let code: String?
    /// Headers the status calls for (`Allow` on a 405, `WWW-Authenticate` on a 401).
    var headers: [(name: String, value: String)] = []

    public var description: String { "\(status) \(message)" }

    /// The response that carries it.
    var response: HTTPResponse {
        var response = HTTPResponse.json(Body(error: self), status: status)
        response.headers += headers
        return response
    }

    private struct Body: Encodable {
        let error: OpenAIError
    }

    private enum CodingKeys: String, CodingKey { case message, type, param, code }

    /// Every key is written, `null` included, as OpenAI writes them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .message)
        try container.encode(type, forKey: .type)
        try container.encode(param, forKey: .param)
        try container.encode(code, forKey: .code)
    }

    static func badRequest(_ message: String, param: String? = nil, code: String? = nil) -> OpenAIError {
        OpenAIError(status: 400, message: message, type: "invalid_request_error", param: param, code: code)
    }

    static let invalidKey = OpenAIError(status: 401, message: "the API key is missing or wrong: send 'Authorization: Bearer KEY' with the key the server was started with",
                                        type: "authentication_error", param: nil, code: "invalid_api_key", headers: [("WWW-Authenticate", "Bearer")])

    static func unknownPath(_ method: String, _ path: String) -> OpenAIError {
        OpenAIError(status: 404, message: "no such endpoint: \(method) \(path) (served: GET /v1/models, POST /v1/chat/completions)",
                    type: "not_found_error", param: nil, code: nil)
    }

    static func unknownModel(_ name: String, served: String) -> OpenAIError {
        OpenAIError(status: 404, message: "the model '\(name)' is not served here; this server answers with '\(served)' (GET /v1/models)",
                    type: "not_found_error", param: "model", code: "model_not_found")
    }

    static func methodNotAllowed(_ method: String, _ path: String, allowed: String) -> OpenAIError {
        OpenAIError(status: 405, message: "\(path) takes \(allowed), not \(method)", type: "invalid_request_error",
                    param: nil, code: nil, headers: [("Allow", allowed)])
    }

    static let lengthRequired = OpenAIError(status: 411, message: "send the body with a Content-Length header (chunked bodies are not read)",
                                            type: "invalid_request_error", param: nil, code: nil)

    static func bodyTooLarge(length: Int, limit: Int) -> OpenAIError {
        OpenAIError(status: 413, message: "the body has \(length) bytes; this server takes at most \(limit) (ask serve --max-body-bytes)",
                    type: "invalid_request_error", param: nil, code: "request_too_large")
    }

    static func headTooLarge(limit: Int) -> OpenAIError {
        OpenAIError(status: 431, message: "the request line and headers are over \(limit) bytes", type: "invalid_request_error", param: nil, code: nil)
    }

    static func busy(answering: Int, waiting: Int) -> OpenAIError {
        OpenAIError(status: 429, message: "busy: \(answering) request(s) answering and \(waiting) waiting, the most this server takes (ask serve --parallel, --queue); try again shortly",
                    type: "unavailable_error", param: nil, code: "server_busy")
    }

    static func tooManyConnections(_ limit: Int) -> OpenAIError {
        OpenAIError(status: 503, message: "busy: \(limit) connections are open, the most this server keeps; try again shortly",
                    type: "unavailable_error", param: nil, code: "server_busy")
    }

    static func server(_ message: String) -> OpenAIError {
        OpenAIError(status: 500, message: message, type: "server_error", param: nil, code: nil)
    }
}
