import Synchronization
import TokenBudget

/// A model a `LanguageModelSession` can run on (Apple's `LanguageModel` protocol, which lets
/// other backends plug into the same session API).
///
/// `LocalModel` is the real one; `ScriptedLanguageModel` replays fixed outputs so the session
/// loop can be unit-tested deterministically.
public protocol LanguageModel: Sendable {
    /// The prompt layout; sessions refuse models whose family is `.unsupported`.
    var chatTemplate: ChatTemplate { get }
    /// Counts tokens for `TokenBudget` with this model's vocabulary.
    var tokenCounter: any TokenCounter { get }
    /// The window sessions use unless they ask for another.
    var defaultContextWindow: ContextWindow { get }
    /// How many parameters the model has, when it says (a GGUF file does): what
    /// `AnswerStyle.automatic` decides by. Nil by default.
    var parameterCount: UInt64? { get }
    /// Single tokens that spell `text` in this vocabulary (Qwen's `<tool_call>` is one token;
    /// SmolLM2's is not), so a lazy grammar can trigger on the token as well as on the text.
    func singleTokens(spelling text: String) -> [Token]
    /// A conversation state (for `LocalModel`, a context with its own KV cache).
    func makeConversation(window: ContextWindow) throws -> any LanguageModelConversation
}

/// One conversation's generation state, as a session uses it.
public protocol LanguageModelConversation: Sendable {
    var contextSize: Int { get }
    /// Generates from prompt text, all of it read as the model's markup.
    func generate(prompt: String, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error>
    /// Generates from a rendered prompt; its content runs must not become control tokens. (What
    /// sessions call. The default sends `prompt.text` to `generate(prompt:parameters:)`, for a
    /// model that takes text and keeps content apart itself.)
    func generate(prompt: RenderedPrompt, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error>
    /// Decodes `prompt` into the cache so the next generation that starts with it is fast.
    func prefill(prompt: String) async throws
    /// `prefill(prompt:)` for a rendered prompt, tokenized as `generate(prompt:parameters:)` does.
    func prefill(prompt: RenderedPrompt) async throws
    var counters: EngineCounters { get async }
}

extension LanguageModel {
    public var parameterCount: UInt64? { nil }
}

extension LanguageModelConversation {
    public func generate(prompt: RenderedPrompt, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        generate(prompt: prompt.text, parameters: parameters)
    }

    public func prefill(prompt: RenderedPrompt) async throws { try await prefill(prompt: prompt.text) }
}

extension InferenceContext: LanguageModelConversation {
    public nonisolated var contextSize: Int { size }
    public nonisolated func prefill(prompt: String) async throws { _ = try await prefill(prompt: prompt) as Int }
    public nonisolated func prefill(prompt: RenderedPrompt) async throws { _ = try await prefill(prompt: prompt) as Int }
}

extension LocalModel: LanguageModel {
    public var tokenCounter: any TokenCounter { tokenizer }
    public var parameterCount: UInt64? { info.parameterCount }
    /// The trained context, capped at 8K: enough for the search tool's guides and a few turns,
    /// and a KV cache that fits comfortably in memory for a 4B model.
    public var defaultContextWindow: ContextWindow { ContextWindow(tokens: min(info.trainedContext, ContextWindow.k8.tokens)) }

    public func singleTokens(spelling text: String) -> [Token] {
        guard let tokens = try? tokenizer.tokenize(text, parseSpecial: true), tokens.count == 1 else { return [] }
        return tokens
    }

    /// A context from the model's pool: a session that ends returns its context, and the next
    /// session with the same window gets it back with its KV cache intact, so the shared prompt
    /// prefix (instructions and tool definitions) is not decoded again.
    public func makeConversation(window: ContextWindow) throws -> any LanguageModelConversation {
        if let idle = contextPool.checkout(window: window.tokens) {
            return PooledConversation(context: idle, pool: contextPool)
        }
        return PooledConversation(context: try makeContext(window: window), pool: contextPool)
    }
}

/// Idle contexts kept for reuse by the next session, at most a few per model.
final class ContextPool: Sendable {
    private let idle = Mutex<[InferenceContext]>([])
    private let capacity = 2

    func checkout(window: Int) -> InferenceContext? {
        idle.withLock { contexts in
            guard let index = contexts.lastIndex(where: { $0.size == window }) else { return nil }
            return contexts.remove(at: index)
        }
    }

    func checkin(_ context: InferenceContext) {
        idle.withLock { contexts in
            contexts.append(context)
            if contexts.count > capacity { contexts.removeFirst(contexts.count - capacity) }
        }
    }
}

/// A context on loan to one session; it goes back to the pool when the session ends.
final class PooledConversation: LanguageModelConversation {
    let context: InferenceContext
    private let pool: ContextPool

    init(context: InferenceContext, pool: ContextPool) {
        self.context = context
        self.pool = pool
    }

    deinit { pool.checkin(context) }

    var contextSize: Int { context.size }
    func generate(prompt: String, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        context.generate(prompt: prompt, parameters: parameters)
    }
    func generate(prompt: RenderedPrompt, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        context.generate(prompt: prompt, parameters: parameters)
    }
    func prefill(prompt: String) async throws { _ = try await context.prefill(prompt: prompt) as Int }
    func prefill(prompt: RenderedPrompt) async throws { _ = try await context.prefill(prompt: prompt) as Int }
    var counters: EngineCounters { get async { await context.counters } }
}
