import Foundation
import LocalModel
import TokenBudget

/// A model that runs on a server (llama-server, vLLM, any server with OpenAI's text
/// completions), as a `LanguageModel`: an app keeps Lantern's `LanguageModelSession`, its tools,
/// its grammar-constrained calls and its token budget while the weights live elsewhere — a
/// larger model than this machine holds, or one GPU server shared by many clients.
///
/// The session renders the prompt in the model's own layout, builds each round's grammar,
/// reads the calls and runs the tools here, exactly as over the in-process `LocalModel`; the
/// server only generates, one streamed text-completion request per round (not the chat
/// endpoint, whose own template and tool parser would replace Lantern's). So the session needs
/// four things from somewhere, and takes each from the most exact source at hand:
///
/// - the chat layout: `Configuration.chatTemplate` by name, else the vocabulary file's, else
///   the template llama-server reports in `/props`;
/// - a token counter: the vocabulary file (`Configuration.vocabulary`, a `LocalModel` loaded
///   with `vocabularyOnly`, exact and local), else the server's `/tokenize`;
/// - the context window: the server's (llama-server's per-request `n_ctx`, vLLM's
///   `max_model_len`), or a smaller one the configuration asks for;
/// - which markup is one token (for lazy-grammar triggers and `preserved_tokens`): the
///   vocabulary, else the server's `/tokenize`.
///
/// A URL alone is enough for llama-server; vLLM says no template, so it needs one named or the
/// vocabulary file. With the vocabulary, prompts go as tokens, so content reaches the model
/// exactly as the in-process engine tokenizes it (a document that spells `<|im_end|>` stays
/// text); without, as text the server tokenizes.
///
/// What is constrained: on llama-server every grammar the session uses, lazy ones from their
/// trigger on (`LlamaServerCompletion`); on vLLM the immediate ones only, the first required
/// call among them (`VLLMCompletion`). Requests carry `Configuration.apiKey` as a bearer token;
/// cancelling the session's task closes the request, which stops the server's generation.
public struct OpenAICompatibleModel: LanguageModel {
    /// Which server's fields a request uses, read from the server when the model connects:
    /// llama-server answers `/props`, anything else is spoken to as vLLM.
    public enum ServerKind: String, Sendable, Hashable {
        case llamaServer = "llama-server"
        case vLLM
    }

    /// Where the layout and the token counts come from, for a front end to say.
    public enum Source: String, Sendable, Hashable {
        case configuration = "named in the configuration"
        case vocabulary = "the vocabulary file"
        case server = "the server"
    }

    /// What the model is told beyond its URL; every field is optional.
    public struct Configuration: Sendable {
        /// The served model's name (`/v1/models`); nil takes the only one the server serves.
        public var model: String?
        /// Sent as `Authorization: Bearer KEY` on every request (llama-server and vLLM
        /// `--api-key`).
        public var apiKey: String?
        /// The model's GGUF file loaded here, usually `LocalModel.vocabularyOnly(contentsOf:)`:
        /// exact token counts without a round trip, the file's chat layout, and prompts sent
        /// as the tokens the in-process engine would decode.
        public var vocabulary: LocalModel?
        /// The chat layout by name (`ChatTemplate.acceptedNames`), in place of the vocabulary's
        /// or the server's: for vLLM without a vocabulary file, or a template the detection
        /// misreads (a Qwen3 over a URL alone reads as ChatML; name "qwen3").
        public var chatTemplate: String?
        /// The window sessions use by default; at most the server's.
        public var contextWindow: ContextWindow?
        /// The longest the server may send nothing, in a request or between streamed tokens.
        public var timeout: Duration

        public init(model: String? = nil, apiKey: String? = nil, vocabulary: LocalModel? = nil, chatTemplate: String? = nil,
                    contextWindow: ContextWindow? = nil, timeout: Duration = .seconds(300)) {
            self.model = model
            self.apiKey = apiKey
            self.vocabulary = vocabulary
            self.chatTemplate = chatTemplate
            self.contextWindow = contextWindow
            self.timeout = timeout
        }
    }

    /// The URL as given.
    public let url: URL
    public let configuration: Configuration
    public let server: ServerKind
    /// The served model's id, what every request names.
    public let modelName: String
    public let chatTemplate: ChatTemplate
    public let tokenCounter: any TokenCounter
    /// `Configuration.contextWindow`, else the server's window.
    public let defaultContextWindow: ContextWindow
    /// The server's window, when it says one: no session may ask for more.
    public let serverContextWindow: ContextWindow?
    /// llama-server's `n_params`, else the vocabulary file's; nil when neither says.
    public let parameterCount: UInt64?
    public let templateSource: Source
    public let countingSource: Source
    let endpoint: ServerEndpoint
    let completionAPI: any CompletionAPI
    /// The server's tokenizer, when no vocabulary file counts.
    private let serverTokens: ServerTokenCounter?

    /// Connects to the server at `url` (`http://host:8080` for llama-server,
    /// `http://host:8000/v1` for vLLM) and reads what it says about itself. Throws
    /// `OpenAICompatibleModelError`: the server unreachable, a key it refuses, a model it does
    /// not serve, a window larger than its own, a template or token counts it cannot give.
    public init(url: URL, configuration: Configuration = Configuration()) async throws(OpenAICompatibleModelError) {
        let endpoint = try ServerEndpoint(url: url, apiKey: configuration.apiKey, timeout: configuration.timeout)
        let address = endpoint.root.absoluteString
        let description = try await ServerDescription.read(from: endpoint)
        let served = try description.model(named: configuration.model, url: address)
        let serverWindow = description.contextWindow ?? served.contextWindow
        if let requested = configuration.contextWindow, let serverWindow, requested > serverWindow {
            throw .contextLargerThanServer(requested: requested, served: serverWindow, url: address)
        }
        guard let window = configuration.contextWindow ?? serverWindow else { throw .contextWindowUnknown(url: address) }

        if let vocabulary = configuration.vocabulary {
            tokenCounter = vocabulary.tokenizer
            serverTokens = nil
            countingSource = .vocabulary
        } else {
            let counter = ServerTokenCounter(endpoint: endpoint, kind: description.kind, model: served.id)
            do {
                _ = try counter.tokens("Hello", parseSpecial: true)
            } catch {
                throw .tokenCountingUnavailable(url: endpoint.url("/tokenize").absoluteString, reason: error.description)
            }
            tokenCounter = counter
            serverTokens = counter
            countingSource = .server
        }

        if let name = configuration.chatTemplate {
            do {
                chatTemplate = try ChatTemplate(named: name)
            } catch {
                throw .unknownChatTemplate(name: name, known: ChatTemplate.acceptedNames)
            }
            templateSource = .configuration
        } else if let vocabulary = configuration.vocabulary {
            chatTemplate = vocabulary.chatTemplate
            templateSource = .vocabulary
        } else if let template = description.chatTemplate {
            // llama.cpp's detection reads the layout from the template's text; the server does
            // not say the architecture, which only Qwen3's layout needs (name it)
            chatTemplate = ChatTemplate(template: template, architecture: "")
            templateSource = .server
        } else {
            throw .chatTemplateUnknown(url: address)
        }

        self.url = url
        self.configuration = configuration
        self.endpoint = endpoint
        self.server = description.kind
        self.modelName = served.id
        self.defaultContextWindow = window
        self.serverContextWindow = serverWindow
        let fileParameters = configuration.vocabulary.flatMap { $0.info.parameterCount > 0 ? $0.info.parameterCount : nil }
        self.parameterCount = served.parameterCount ?? fileParameters
        let completions = endpoint.url(description.kind == .llamaServer ? "/completion" : "/v1/completions")
        self.completionAPI = switch description.kind {
        case .llamaServer: LlamaServerCompletion(model: served.id, url: completions)
        case .vLLM: VLLMCompletion(model: served.id, url: completions)
        }
        try checkVocabulary()
    }

    public func singleTokens(spelling text: String) -> [Token] {
        if let vocabulary = configuration.vocabulary { return vocabulary.singleTokens(spelling: text) }
        guard let tokens = try? serverTokens?.tokens(text, parseSpecial: true), tokens.count == 1 else { return [] }
        return tokens
    }

    /// A conversation whose rounds are requests to the server; `window` may not exceed the
    /// server's (`OpenAICompatibleModelError.contextLargerThanServer`).
    public func makeConversation(window: ContextWindow) throws -> any LanguageModelConversation {
        if let serverContextWindow, window > serverContextWindow {
            throw OpenAICompatibleModelError.contextLargerThanServer(requested: window, served: serverContextWindow, url: endpoint.root.absoluteString)
        }
        return OpenAICompatibleConversation(model: self, contextSize: window.tokens)
    }

    /// The prompt as a request carries it: the vocabulary's tokens (with its beginning-of-
    /// sequence token, as the engine decodes them), else the text.
    func input(_ prompt: RenderedPrompt) throws -> PromptInput {
        guard let vocabulary = configuration.vocabulary else { return .text(prompt.text) }
        return .tokens(try vocabulary.tokenizer.tokenize(prompt, addSpecial: true))
    }

    /// The markup of the family's calls and the round's triggers that this vocabulary spells
    /// as one token: what llama-server must preserve to start a grammar on it and to show it.
    func preservedTokens(_ parameters: GenerationParameters) -> [String] {
        let syntax = chatTemplate.toolLayout.callSyntax
        var words = [syntax.trigger, syntax.roundOpen, syntax.callOpen, syntax.callClose, syntax.roundClose, syntax.separator]
        if case .lazy(let triggers, _, _)? = parameters.grammar?.activation { words += triggers }
        return Set(words.filter { !$0.isEmpty }).filter { !singleTokens(spelling: $0).isEmpty }.sorted()
    }

    /// Refuses a vocabulary file that is not the served model's: its tokens of a probe text
    /// must be the server's (tokens sent from another vocabulary would be another text).
    private func checkVocabulary() throws(OpenAICompatibleModelError) {
        guard let vocabulary = configuration.vocabulary else { return }
        let probe = "Lantern checks: the vocabulary 123, <tool_call> ünïcode"
        let server = ServerTokenCounter(endpoint: endpoint, kind: server, model: modelName)
        guard let theirs = try? server.tokens(probe, parseSpecial: true) else { return }   // no /tokenize: nothing to compare
        let ours = (try? vocabulary.tokenizer.tokenize(probe, addSpecial: false, parseSpecial: true)) ?? []
        guard ours == theirs else {
            throw .vocabularyMismatch(file: vocabulary.url.lastPathComponent, model: modelName, url: endpoint.root.absoluteString)
        }
    }
}
