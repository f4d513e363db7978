import Foundation
import LocalModel

/// The server at one URL, as the remote model talks to it: the root its paths hang from (the
/// URL without a trailing `/v1`, since llama-server's own endpoints and vLLM's /tokenize sit
/// beside /v1, not under it), the key every request carries, the timeout every wait has, and
/// the one place an HTTP status becomes an `OpenAICompatibleModelError`.
struct ServerEndpoint: Sendable {
    let root: URL
    let apiKey: String?
    let timeout: Duration

    /// `url` as given by the user: `http://host:8080`, `http://host:8000/v1`, with or without
    /// a trailing slash.
    init(url: URL, apiKey: String?, timeout: Duration) throws(OpenAICompatibleModelError) {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty else {
            throw .invalidURL(url.absoluteString)
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix("/v1") { text.removeLast(3) }
        guard let root = URL(string: text) else { throw .invalidURL(url.absoluteString) }
        self.root = root
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        self.timeout = timeout
    }

    /// `path` ("/props", "/v1/completions") under the root.
    func url(_ path: String) -> URL { URL(string: root.absoluteString + path) ?? root }

    /// A GET of `path`: its status and JSON (nil when the body is not JSON).
    func get(_ path: String) async throws(OpenAICompatibleModelError) -> (status: Int, json: JSONValue?, text: String) {
        let url = url(path)
        let (status, body) = try await translatingFailures(of: url) { try await HTTPClient.send(.get(url, bearer: apiKey), timeout: timeout) }
        let text = String(decoding: body, as: UTF8.self)
        return (status, try? JSONValue(parsing: text, duplicateKeys: .lastWins), text)
    }

    /// A POST of `body` to `path`; the answer's JSON, or the error its status stands for.
    func post(_ path: String, _ body: JSONObject) async throws(OpenAICompatibleModelError) -> JSONValue {
        let url = url(path)
        let (status, data) = try await translatingFailures(of: url) { try await HTTPClient.send(request(url, body), timeout: timeout) }
        return try read(status: status, body: data, url: url)
    }

    /// `post` on the calling thread, for callers that cannot await (token counting).
    func postWaiting(_ path: String, _ body: JSONObject) throws(OpenAICompatibleModelError) -> JSONValue {
        let url = url(path)
        let status: Int, data: Data
        do {
            (status, data) = try HTTPClient.sendWaiting(request(url, body), timeout: timeout)
        } catch {
            throw OpenAICompatibleModelError(error, url: url, timeout: timeout)
        }
        return try read(status: status, body: data, url: url)
    }

    /// A POST whose answer streams: the response once its head says 200, else the error.
    func open(_ path: String, _ body: JSONObject) async throws(OpenAICompatibleModelError) -> HTTPResponse {
        let url = url(path)
        return try await translatingFailures(of: url) {
            let response = try await HTTPClient.open(request(url, body), timeout: timeout)
            guard response.status == 200 else {
                throw Self.error(status: response.status, text: String(decoding: try await response.collect(limit: 1 << 20), as: UTF8.self),
                                 url: url, keySent: apiKey != nil)
            }
            return response
        }
    }

    /// Runs `exchange` with `url`, its failures in `OpenAICompatibleModelError`'s words: the
    /// transport's, and those of a body read later (a stream that breaks).
    func translatingFailures<T>(of url: URL, _ exchange: () async throws -> T) async throws(OpenAICompatibleModelError) -> T {
        do {
            return try await exchange()
        } catch let error as OpenAICompatibleModelError {
            throw error
        } catch let failure as HTTPFailure {
            throw OpenAICompatibleModelError(failure, url: url, timeout: timeout)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .connectionLost(url: url.absoluteString, reason: "\(error)")
        }
    }

    /// A POST of `body` as JSON to `url`, with the key.
    private func request(_ url: URL, _ body: JSONObject) -> HTTPRequest {
        .post(url, json: Data(JSONValue.object(body).jsonString.utf8), bearer: apiKey)
    }

    /// The JSON of a 200 answer, or the error its status stands for.
    private func read(status: Int, body: Data, url: URL) throws(OpenAICompatibleModelError) -> JSONValue {
        let text = String(decoding: body, as: UTF8.self)
        guard status == 200 else { throw Self.error(status: status, text: text, url: url, keySent: apiKey != nil) }
        do {
            return try JSONValue(parsing: text, duplicateKeys: .lastWins)
        } catch {
            throw .unreadableAnswer(url: url.absoluteString, reason: "not JSON (\(error)): \(text.prefix(200))")
        }
    }

    /// The error an answer with `status` stands for, with the server's message: OpenAI's shape
    /// (`{"error": {"message": …}}`, llama-server's and vLLM's), a bare `message` or `detail`,
    /// or the text itself.
    static func error(status: Int, text: String, url: URL, keySent: Bool) -> OpenAICompatibleModelError {
        let json = try? JSONValue(parsing: text, duplicateKeys: .lastWins)
        let message = json?["error"]?["message"]?.stringValue ?? json?["error"]?.stringValue ?? json?["message"]?.stringValue
            ?? json?["detail"]?.stringValue ?? String(text.prefix(300))
        let address = url.absoluteString
        switch status {
        case 401, 403:
            return .unauthorized(url: address, status: status, message: message, keySent: keySent)
        case 400..<500 where message.lowercased().contains("grammar"):
            return .grammarRefused(url: address, message: message)
        case 400..<500:
            return .requestRefused(url: address, status: status, message: message)
        default:
            return .serverFailed(url: address, status: status, message: message)
        }
    }
}
