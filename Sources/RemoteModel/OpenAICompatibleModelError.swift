import Foundation
import TokenBudget

/// Why a remote model could not be connected to or could not answer. Each case says which
/// server, what failed, and what to do; the server's own message is quoted where it gave one.
public enum OpenAICompatibleModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing answered at `url`: the server is not running, the host or port is wrong, or the
    /// network is down.
    case serverUnreachable(url: String, reason: String)
    /// The TLS connection to an `https` URL failed (an untrusted or expired certificate).
    case secureConnectionFailed(url: String, reason: String)
    /// The server refused the request's key (HTTP 401 or 403): none was sent and it wants one,
    /// or the one sent is not the one it was started with.
    case unauthorized(url: String, status: Int, message: String, keySent: Bool)
    /// `model` is not among the models the server serves (`/v1/models`).
    case unknownModel(name: String, served: [String], url: String)
    /// The server serves several models and none was named.
    case modelNotChosen(served: [String], url: String)
    /// The server refused a round's grammar (HTTP 400 naming the grammar or its triggers).
    case grammarRefused(url: String, message: String)
    /// Any other refusal (HTTP 4xx), with the server's message.
    case requestRefused(url: String, status: Int, message: String)
    /// The server failed (HTTP 5xx), with its message.
    case serverFailed(url: String, status: Int, message: String)
    /// The server sent nothing for `timeout`.
    case timedOut(url: String, timeout: Duration)
    /// The connection broke while the answer was arriving.
    case connectionLost(url: String, reason: String)
    /// The server's answer could not be read (not JSON, or without the fields its API has).
    case unreadableAnswer(url: String, reason: String)
    /// `url` is not an `http://` or `https://` URL with a host.
    case invalidURL(String)
    /// No chat template: none was named, no vocabulary file given, and the server does not
    /// say which it uses (only llama-server does, in /props).
    case chatTemplateUnknown(url: String)
    /// `Configuration.chatTemplate` names no layout Lantern knows.
    case unknownChatTemplate(name: String, known: [String])
    /// Tokens cannot be counted: no vocabulary file was given and the server's /tokenize failed.
    case tokenCountingUnavailable(url: String, reason: String)
    /// No context window: none was given and the server does not say its own.
    case contextWindowUnknown(url: String)
    /// The vocabulary file is not the served model's: its tokens of the same text differ.
    case vocabularyMismatch(file: String, model: String, url: String)
    /// The window asked for is larger than the one the server runs with.
    case contextLargerThanServer(requested: ContextWindow, served: ContextWindow, url: String)
    /// The request's task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .serverUnreachable(let url, let reason):
            "cannot reach the model server at \(url) (\(reason)); check that it is running and that the URL is right (llama-server: http://HOST:8080, vLLM: http://HOST:8000/v1)"
        case .secureConnectionFailed(let url, let reason):
            "the TLS connection to \(url) failed (\(reason)); check the server's certificate, or use http:// on a trusted network"
        case .unauthorized(let url, let status, let message, let keySent):
            keySent
                ? "the model server at \(url) refused the API key (HTTP \(status): \(message)); give the key it was started with (--api-key, or OpenAICompatibleModel.Configuration.apiKey)"
                : "the model server at \(url) wants an API key (HTTP \(status): \(message)); give it with --api-key (or OpenAICompatibleModel.Configuration.apiKey)"
        case .unknownModel(let name, let served, let url):
            "the model server at \(url) does not serve a model named '\(name)'; it serves: \(served.joined(separator: ", "))"
        case .modelNotChosen(let served, let url):
            "the model server at \(url) serves several models; name one (--server-model, or OpenAICompatibleModel.Configuration.model): \(served.joined(separator: ", "))"
        case .grammarRefused(let url, let message):
            "the model server at \(url) refused the round's grammar: \(message); a llama-server older than lazy grammars, or a server without GBNF grammars, cannot constrain tool calls"
        case .requestRefused(let url, let status, let message):
            "the model server at \(url) refused the request (HTTP \(status)): \(message)"
        case .serverFailed(let url, let status, let message):
            "the model server at \(url) failed (HTTP \(status)): \(message); its log says more"
        case .timedOut(let url, let timeout):
            "the model server at \(url) sent nothing for \(timeout); it may be overloaded, or raise the timeout (OpenAICompatibleModel.Configuration.timeout)"
        case .connectionLost(let url, let reason):
            "the connection to the model server at \(url) failed while it answered (\(reason)); it may have stopped or crashed"
        case .unreadableAnswer(let url, let reason):
            "the model server at \(url) answered with something unreadable (\(reason)); is it an OpenAI-compatible server (llama-server, vLLM)?"
        case .invalidURL(let url):
            "'\(url)' is not a server URL; give one such as http://127.0.0.1:8080 (llama-server) or http://HOST:8000/v1 (vLLM)"
        case .chatTemplateUnknown(let url):
            "the model server at \(url) does not say its chat template; name the layout (--chat-template chatml, or Configuration.chatTemplate) or give the model's GGUF file for its vocabulary (--model)"
        case .unknownChatTemplate(let name, let known):
            "no chat layout is named '\(name)'; name the one the served model was trained on, one of: \(known.joined(separator: ", "))"
        case .tokenCountingUnavailable(let url, let reason):
            "cannot count tokens with the model server at \(url) (its /tokenize: \(reason)); give the model's GGUF file (--model, or Configuration.vocabulary), which counts them here"
        case .contextWindowUnknown(let url):
            "the model server at \(url) does not say its context window; give it (--context, or Configuration.contextWindow)"
        case .vocabularyMismatch(let file, let model, let url):
            "\(file) is not the vocabulary of '\(model)' served at \(url) (they tokenize the same text differently); give that model's own GGUF file, or none (the server then counts)"
        case .contextLargerThanServer(let requested, let served, let url):
            "a \(requested.tokens)-token window is larger than the \(served.tokens) tokens the model server at \(url) runs with per request; ask for \(served.tokens) or less, or restart the server with a larger context"
        case .cancelled:
            "the request to the model server was cancelled"
        }
    }

    /// The transport's failure of a request to `url`, in this type's words.
    init(_ failure: HTTPFailure, url: URL, timeout: Duration) {
        let url = url.absoluteString
        switch failure {
        case .cannotConnect(let reason): self = .serverUnreachable(url: url, reason: reason)
        case .secureConnectionFailed(let reason): self = .secureConnectionFailed(url: url, reason: reason)
        case .timedOut: self = .timedOut(url: url, timeout: timeout)
        case .connectionLost(let reason): self = .connectionLost(url: url, reason: reason)
        case .cancelled: self = .cancelled
        case .unsupportedURL(let text): self = .invalidURL(text)
        }
    }
}
