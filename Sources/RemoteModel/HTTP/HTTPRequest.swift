import Foundation

/// One HTTP request as the remote model sends it: a method, an absolute `http` or `https` URL,
/// its headers and an optional body. JSON bodies carry their content type.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: URL
    package var headers: [(name: String, value: String)]
    package var body: Data?

    package init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A GET of `url`.
    package static func get(_ url: URL, bearer key: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "GET", url: url, headers: authorization(key))
    }

    /// A POST of `json` (already serialised) to `url`.
    package static func post(_ url: URL, json: Data, bearer key: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "POST", url: url, headers: [("Content-Type", "application/json")] + authorization(key), body: json)
    }

    /// `Authorization: Bearer KEY`, how OpenAI-compatible servers (llama-server `--api-key`,
    /// vLLM `--api-key`) take a key.
    private static func authorization(_ key: String?) -> [(name: String, value: String)] {
        guard let key, !key.isEmpty else { return [] }
        return [("Authorization", "Bearer \(key)")]
    }
}
