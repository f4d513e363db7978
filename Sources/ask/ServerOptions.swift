import CommandLineArguments
import Foundation
import Lantern

/// `--server`, `--server-model`, `--api-key`: answer with a model an OpenAI-compatible server
/// runs (llama-server, vLLM) instead of loading one here. The session, the tools, the grammars
/// and the token budget stay in `ask` (`OpenAICompatibleModel`); `--model` alongside gives the
/// model's exact vocabulary and layout, `--chat-template` and `--context` keep their meaning.
struct ServerOptions: ParsableArguments {
    @Option("server", .serverURL, help: "Answer with the model this OpenAI-compatible server runs (llama-server: http://HOST:8080, vLLM: http://HOST:8000/v1) instead of loading one; --model then only gives its vocabulary.")
    var server: URL?
    @Option("server-model", .text("NAME"), help: "The model --server should answer with (default: the only one it serves).")
    var serverModel: String?
    @Option("api-key", .text("KEY"), help: "Send 'Authorization: Bearer KEY' to --server (default: $\(ServerOptions.apiKeyVariable)).")
    var apiKey: String?

    /// The variable read for the key when --api-key is not given: named for the server it is
    /// sent to, apart from `ask serve`'s LANTERN_API_KEY, the key that server demands.
    static let apiKeyVariable = "LANTERN_SERVER_API_KEY"

    /// The key to send: --api-key, else the variable when set and not empty.
    var key: String? {
        apiKey ?? ProcessInfo.processInfo.environment[Self.apiKeyVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Refuses what cannot go together, before anything is opened: the server's own flags
    /// without --server, and with it the flags that place or run a model loaded here.
    func check(with model: ModelLoadingOptions, usage: String) throws(UsageError) {
        guard server != nil else {
            if let lone = [("--server-model", serverModel), ("--api-key", apiKey)].first(where: { $0.1 != nil })?.0 {
                throw UsageError("\(lone) is for a model on a server; give --server URL too", usage: usage)
            }
            return
        }
        let local = [("--gpu-layers", model.placement.gpuLayers != nil), ("--rpc", model.placement.rpcServers != nil),
                     ("--tensor-split", model.placement.tensorSplit != nil), ("--threads", model.threads != nil)]
        if let flag = local.first(where: \.1)?.0 {
            throw UsageError("\(flag) runs a model loaded here, and with --server the model runs on the server; drop one of them", usage: usage)
        }
    }

    /// Connects to the server, with the vocabulary of --model when given (loaded without its
    /// weights), --chat-template and --context; nil without --server.
    func connect(with model: ModelLoadingOptions) async throws -> OpenAICompatibleModel? {
        guard let server else { return nil }
        let vocabulary = try model.model.map { _ in try model.options.loader.loadVocabulary() }
        return try await OpenAICompatibleModel(url: server, configuration: .init(
            model: serverModel, apiKey: key, vocabulary: vocabulary, chatTemplate: model.chatTemplate, contextWindow: model.context))
    }
}

extension ArgumentType where Element == URL {
    /// An `http://` or `https://` URL with a host.
    static var serverURL: Self {
        Self(valueName: "URL", requirement: "needs an http:// or https:// URL such as http://127.0.0.1:8080") { word in
            guard let url = URL(string: word), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  let host = url.host, !host.isEmpty else { return nil }
            return url
        }
    }
}
