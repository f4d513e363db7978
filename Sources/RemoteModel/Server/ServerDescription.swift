import Foundation
import LocalModel
import TokenBudget

/// What a server says about itself when a model connects: which server it is, the models it
/// serves, and where it says them its context window, chat template and model size.
///
/// llama-server answers `/props` (its template and per-request window, `n_ctx`) and lists
/// `n_params` in `/v1/models`; vLLM answers neither `/props` nor a template, and gives the
/// window as `max_model_len` in `/v1/models`. `/props` is asked first because llama-server
/// checks the key there (it lets `/v1/models` through without one), so a wrong key is found
/// when the model connects rather than at the first question.
struct ServerDescription: Sendable {
    var kind: OpenAICompatibleModel.ServerKind
    /// One model the server serves.
    struct ServedModel: Sendable {
        /// What requests name in `model`.
        var id: String
        /// The id and the other names it answers to (llama-server's aliases).
        var names: [String]
        /// vLLM's `max_model_len`.
        var contextWindow: ContextWindow?
        /// llama-server's `meta.n_params`.
        var parameterCount: UInt64?
    }

    var models: [ServedModel]
    /// The per-request window llama-server runs with (`default_generation_settings.n_ctx`).
    var contextWindow: ContextWindow?
    /// The Jinja chat template llama-server renders its chat endpoint with.
    var chatTemplate: String?

    static func read(from endpoint: ServerEndpoint) async throws(OpenAICompatibleModelError) -> ServerDescription {
        let props = try await endpoint.get("/props")
        try checkKey(props, endpoint: endpoint, path: "/props")
        let settings = props.status == 200 ? props.json?["default_generation_settings"] : nil
        var description = ServerDescription(kind: settings == nil ? .vLLM : .llamaServer, models: [],
                                            contextWindow: settings?["n_ctx"]?.intValue.flatMap { $0 > 0 ? ContextWindow(tokens: $0) : nil },
                                            chatTemplate: props.json?["chat_template"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
        let list = try await endpoint.get("/v1/models")
        try checkKey(list, endpoint: endpoint, path: "/v1/models")
        guard list.status == 200, let entries = list.json?["data"]?.arrayValue else {
            throw list.status == 200
                ? .unreadableAnswer(url: endpoint.url("/v1/models").absoluteString, reason: "no \"data\" list of models: \(list.text.prefix(200))")
                : ServerEndpoint.error(status: list.status, text: list.text, url: endpoint.url("/v1/models"), keySent: endpoint.apiKey != nil)
        }
        description.models = entries.compactMap { entry in
            guard let id = entry["id"]?.stringValue else { return nil }
            let aliases = (entry["aliases"]?.arrayValue ?? []).compactMap(\.stringValue)
            let window = entry["max_model_len"]?.intValue.flatMap { $0 > 0 ? ContextWindow(tokens: $0) : nil }
            let parameters = entry["meta"]?["n_params"]?.intValue.flatMap { $0 > 0 ? UInt64($0) : nil }
            return ServedModel(id: id, names: [id] + aliases, contextWindow: window, parameterCount: parameters)
        }
        return description
    }

    /// The served model `name` stands for, or the only one when no name is given.
    func model(named name: String?, url: String) throws(OpenAICompatibleModelError) -> ServedModel {
        let ids = models.map(\.id)
        guard let name else {
            guard let only = models.first, models.count == 1 else {
                throw models.isEmpty ? .unreadableAnswer(url: url, reason: "/v1/models lists no model") : .modelNotChosen(served: ids, url: url)
            }
            return only
        }
        guard let match = models.first(where: { $0.names.contains(name) }) else { throw .unknownModel(name: name, served: ids, url: url) }
        return match
    }

    /// Refuses an answer of 401 or 403: the key is missing or wrong.
    private static func checkKey(_ answer: (status: Int, json: JSONValue?, text: String), endpoint: ServerEndpoint,
                                 path: String) throws(OpenAICompatibleModelError) {
        guard [401, 403].contains(answer.status) else { return }
        throw ServerEndpoint.error(status: answer.status, text: answer.text, url: endpoint.url(path), keySent: endpoint.apiKey != nil)
    }
}
