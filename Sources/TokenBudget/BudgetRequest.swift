/// Everything a prospective request puts into the model's context, as text, before any decode.
///
/// The session fills this in from its instructions, tools, transcript and the new prompt, then
/// asks for a ``BudgetReport`` (what each part costs) and, when the transcript has grown too
/// long, for a ``TranscriptTrimmingPolicy`` to make it fit. Keeping the request as plain text
/// keeps TokenBudget free of llama.cpp and of the session's own types.
public struct BudgetRequest: Sendable, Hashable {
    /// The session's instructions (the system message).
    public var instructions: String
    /// The tools whose definitions are rendered into the prompt, in prompt order.
    public var tools: [Tool]
    /// What the chat template's own markup costs on top of the content.
    public var templateOverhead: TemplateOverhead
    /// The conversation so far, oldest first.
    public var transcript: [Entry]
    /// The new user prompt this request answers.
    public var prompt: String
    /// Tokens kept free for the model's answer.
    public var reservedAnswerTokens: Int

    public init(
        instructions: String = "",
        tools: [Tool] = [],
        templateOverhead: TemplateOverhead = .tokens(0),
        transcript: [Entry] = [],
        prompt: String,
        reservedAnswerTokens: Int
    ) {
        self.instructions = instructions
        self.tools = tools
        self.templateOverhead = templateOverhead
        self.transcript = transcript
        self.prompt = prompt
        self.reservedAnswerTokens = reservedAnswerTokens
    }
}
