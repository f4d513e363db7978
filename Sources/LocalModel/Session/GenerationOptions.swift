/// Options for one response (Apple's `GenerationOptions`, plus the knobs a local model needs).
public struct GenerationOptions: Sendable, Hashable {
    /// How tokens are chosen (Apple's `GenerationOptions.SamplingMode`).
    public struct SamplingMode: Sendable, Hashable {
        enum Method: Sendable, Hashable {
            case greedy
            case topK(Int, seed: UInt32?)
            case topP(Double, seed: UInt32?)
        }
        let method: Method

        /// Always the most likely token: deterministic.
        public static let greedy = SamplingMode(method: .greedy)
        /// Sample among the `top` most likely tokens.
        public static func random(top: Int, seed: UInt32? = nil) -> SamplingMode { SamplingMode(method: .topK(top, seed: seed)) }
        /// Sample from the smallest set of tokens whose probabilities add up to the threshold.
        public static func random(probabilityThreshold: Double, seed: UInt32? = nil) -> SamplingMode {
            SamplingMode(method: .topP(probabilityThreshold, seed: seed))
        }
    }

    /// Whether the model may, must, or must not call tools this turn.
    public enum ToolCallingMode: Sendable, Hashable {
        /// The model chooses: free text, or a call (which is then grammar-constrained).
        case allowed
        /// The model must answer in text; a call cannot start.
        case disallowed
        /// The model's first output must be a call. See `RequiredToolCallingExit`.
        case required
    }

    /// What `.required` becomes after a round of tool calls.
    ///
    /// Apple's `.required` keeps demanding calls, so a model never gets to answer and the loop
    /// runs until something throws. Lantern's default relaxes to `.allowed` after the first
    /// round, so the model can answer from what the tools returned.
    public enum RequiredToolCallingExit: Sendable, Hashable {
        /// After one round of calls, continue as `.allowed` (the default).
        case relaxAfterFirstRound
        /// Keep requiring calls every round; the session's round limit ends the loop.
        case keepRequiring
    }

    /// nil means greedy. Apple samples by default; a small local model answers better, and
    /// tests and evaluations repeat exactly, when it decodes greedily unless asked otherwise.
    public var sampling: SamplingMode?
    public var temperature: Double?
    public var maximumResponseTokens: Int?
    public var toolCallingMode: ToolCallingMode
    public var requiredToolCallingExit: RequiredToolCallingExit
    /// Whether control-token spellings in the prompt's text (`<|im_end|>`, `<|im_start|>`) are
    /// read as control tokens. Off by default: the prompt is the user's text, tokenized as text,
    /// so it cannot end its own turn or open a system turn. Turn it on only for a prompt that
    /// deliberately carries the model's markup. (A Lantern addition; Apple's API has no such
    /// switch because its prompts never reach a tokenizer as markup.)
    public var parsesSpecialTokensInPrompt: Bool
    /// How many calls one round may hold, enforced by the grammar: after the last one the round
    /// can only end. One by default: measured on 150 function-calling questions, the default
    /// model wrote its call again in 147 of 149 rounds that allowed four, spending the tokens of
    /// calls no one wanted; a question that needs two tools gets them in two rounds. (A Lantern
    /// addition; Apple's API leaves the count to the model.)
    public var maximumToolCallsPerRound: Int
    /// How an answer after tool outputs is written: prose, verbatim quotes of the sources, or
    /// the one that suits the model's size (the default; see `AnswerStyle.automatic`).
    public var answerStyle: AnswerStyle
    /// Whether an answer after tool outputs with sources may cite them with `[id]` markers,
    /// under a grammar that admits only the ids this response showed (`Citation`). On by
    /// default; off, a `[` in prose is free text. Quote mode always cites.
    public var citesSources: Bool
    /// The tools the model may call in this response, by name; nil (the default): all of the
    /// session's tools. The others stay described in the instructions, so the system turn (and
    /// its KV cache) is the same whichever are allowed; only the rounds' grammars leave them
    /// out, as a tool's own `isAvailable(for:)` does. With `.required`, a set of one name
    /// forces a call of that tool. (A Lantern addition: OpenAI's `tool_choice` naming one
    /// function, or `"none"` for the client's functions while the server's tools stay.)
    public var allowedToolNames: Set<String>?
    /// The token cap of a round that can only be calls (`.required`), whose text is never the
    /// answer; nil: `maximumResponseTokens`, as every round's. A caller that caps the answer
    /// short (an OpenAI client's `max_tokens`) keeps its required search whole this way: cut
    /// at the answer's cap, the call would not parse, and the model would answer from the
    /// error. (A Lantern addition.)
    public var maximumToolCallRoundTokens: Int?

    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
                toolCallingMode: ToolCallingMode = .allowed, requiredToolCallingExit: RequiredToolCallingExit = .relaxAfterFirstRound,
                parsesSpecialTokensInPrompt: Bool = false, maximumToolCallsPerRound: Int = 1,
                answerStyle: AnswerStyle = .automatic, citesSources: Bool = true, allowedToolNames: Set<String>? = nil,
                maximumToolCallRoundTokens: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCallingMode = toolCallingMode
        self.requiredToolCallingExit = requiredToolCallingExit
        self.parsesSpecialTokensInPrompt = parsesSpecialTokensInPrompt
        self.maximumToolCallsPerRound = max(1, maximumToolCallsPerRound)
        self.answerStyle = answerStyle
        self.citesSources = citesSources
        self.allowedToolNames = allowedToolNames
        self.maximumToolCallRoundTokens = maximumToolCallRoundTokens
    }

    /// The engine's sampling options for these settings (greedy unless asked otherwise).
    var samplingOptions: SamplingOptions {
        let temperature = Float(self.temperature ?? 0.7)
        switch sampling?.method ?? .greedy {
        case .greedy:
            return .greedy
        case .topK(let top, let seed):
            return .random(temperature: temperature, topK: top, topP: nil, minP: nil, seed: seed ?? 0)
        case .topP(let threshold, let seed):
            return .random(temperature: temperature, topK: nil, topP: Float(threshold), minP: nil, seed: seed ?? 0)
        }
    }
}
