import LocalModel

/// One server's text-completion endpoint: the request body for a round, and how its streamed
/// events read. `LlamaServerCompletion` and `VLLMCompletion` are the two; the conversation
/// does everything else (sending, streaming, stops, totals) the same way for both.
protocol CompletionAPI: Sendable {
    /// The endpoint's path under the server's root.
    var path: String { get }
    /// The body of one round: `prompt`, the round's token cap, stops, sampling and grammar,
    /// streamed. `preserving` is the markup the vocabulary spells as one token.
    func body(prompt: PromptInput, parameters: GenerationParameters, preserving: [String]) throws(OpenAICompatibleModelError) -> JSONObject
    /// The body that only decodes `prompt` into the server's cache (`prefill`).
    func prefillBody(prompt: PromptInput) -> JSONObject
    /// Reads one event's data into `progress`; returns the text it adds.
    func read(_ event: String, into progress: inout CompletionProgress) throws(OpenAICompatibleModelError) -> String
}

/// A prompt as a request carries it: text the server tokenizes, or the tokens themselves
/// (from a local vocabulary, exactly as the in-process engine would decode them).
enum PromptInput: Sendable {
    case text(String)
    case tokens([Token])

    var json: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .tokens(let tokens): .array(tokens.map { .int(Int($0)) })
        }
    }
}

/// What a round's events have said so far.
struct CompletionProgress: Sendable {
    /// The server said the round is over.
    var isFinished = false
    var stopReason: GenerationSummary.StopReason = .endOfGeneration
    /// Prompt tokens, of them those the server found in its cache, and tokens generated, as
    /// the server counted them; nil until it says.
    var promptTokens: Int?
    var cachedTokens: Int?
    var generatedTokens: Int?
    /// The server's own timings (llama-server's `prompt_ms`, `predicted_ms`).
    var prefillDuration: Duration?
    var generationDuration: Duration?
    /// Text events so far: the generated count when the server gives none (a round stopped
    /// early by the conversation).
    var textEvents = 0
}
