import LocalModel
import Synchronization
import TokenBudget

/// Counts tokens with the server's own tokenizer, through its `/tokenize`, when no vocabulary
/// file is at hand: llama-server takes `{"content", "add_special", "parse_special"}`, vLLM
/// `{"model", "prompt", "add_special_tokens"}`; both answer `{"tokens": [...]}`.
///
/// `TokenCounter` counts synchronously, so a count the cache does not hold waits for one round
/// trip on the calling thread (a few milliseconds on loopback); a session counts its
/// instructions, tool definitions and transcript entries every round, and all but the newest
/// are in the cache by then. vLLM always reads control-token spellings as control tokens, so
/// there a text that spells one (`<|im_end|>` in a document) counts as the token rather than
/// its characters: a count that can run a few tokens short of the model's for such text only.
final class ServerTokenCounter: TokenCounter {
    private struct Key: Hashable {
        var text: String
        var parseSpecial: Bool
    }

    private let endpoint: ServerEndpoint
    private let kind: OpenAICompatibleModel.ServerKind
    private let model: String
    private let cache = Mutex<[Key: [Token]]>([:])
    /// Cached tokenizations at most; past it the cache starts again (a long session's old
    /// entries are the ones trimmed first anyway).
    private let capacity = 4096

    init(endpoint: ServerEndpoint, kind: OpenAICompatibleModel.ServerKind, model: String) {
        self.endpoint = endpoint
        self.kind = kind
        self.model = model
    }

    func countTokens(in text: String, parseSpecial: Bool) throws -> Int {
        try tokens(text, parseSpecial: parseSpecial).count
    }

    /// The tokens of `text` without a beginning-of-sequence token.
    func tokens(_ text: String, parseSpecial: Bool) throws(OpenAICompatibleModelError) -> [Token] {
        guard !text.isEmpty else { return [] }
        let key = Key(text: text, parseSpecial: parseSpecial)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let body: JSONObject = switch kind {
        case .llamaServer: ["content": .string(text), "add_special": false, "parse_special": .bool(parseSpecial)]
        case .vLLM: ["model": .string(model), "prompt": .string(text), "add_special_tokens": false]
        }
        let answer = try endpoint.postWaiting("/tokenize", body)
        // llama-server gives `{"id", "piece"}` objects instead of numbers when asked for pieces
        guard let list = answer["tokens"]?.arrayValue,
              case let tokens = list.compactMap({ ($0.intValue ?? $0["id"]?.intValue).map { Token(truncatingIfNeeded: $0) } }),
              tokens.count == list.count else {
            throw .unreadableAnswer(url: endpoint.url("/tokenize").absoluteString, reason: "no \"tokens\" list: \(answer.jsonString.prefix(200))")
        }
        cache.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = tokens
        }
        return tokens
    }
}
