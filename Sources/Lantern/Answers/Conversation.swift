import LocalModel

/// A question asked in the course of a conversation a front end keeps (an OpenAI client's
/// messages): what was said before, the functions the caller runs itself, which of them the
/// model may call, and what comes next — a new question, or the outputs of the calls the last
/// answer ended with. `QuestionAnswerer.answer(_:onEvent:)` answers it with the search loop
/// `ask` runs; a bare question is a conversation with nothing before it.
public struct Conversation: Sendable {
    /// What the answer goes on from.
    public enum Next: Sendable {
        /// A new question, answered by the search loop as `ask` answers one.
        case question(String)
        /// The outputs of the external calls the history ends with (by call id): the answer
        /// goes on from them, and the model may search, call again or answer.
        case toolOutputs([Transcript.ToolOutput])
    }

    /// Which of the external tools the model may call (OpenAI's `tool_choice`). The index's own
    /// tools are the server's, not the caller's, so only the search loop's rules bind them.
    public enum ExternalToolChoice: Sendable, Hashable {
        /// Described to the model, never called: the search loop runs as without them.
        case none
        /// The model chooses: its first round searches or calls one; then it may answer.
        case auto
        /// The reply is a call of one of them (grammar-bound), without searching first.
        case required
        /// The reply is a call of the tool of this name.
        case named(String)
    }

    /// Said to the model after the index's own instructions (a client's system message).
    public var instructions: String?
    /// The earlier turns: prompts, responses, calls of external tools and their outputs.
    public var history: [Transcript.Entry]
    public var next: Next
    /// The caller's own functions, offered beside the search tool.
    public var externalTools: [ExternalTool]
    public var toolChoice: ExternalToolChoice

    public init(instructions: String? = nil, history: [Transcript.Entry] = [], next: Next,
                externalTools: [ExternalTool] = [], toolChoice: ExternalToolChoice = .auto) {
        self.instructions = instructions
        self.history = history
        self.next = next
        self.externalTools = externalTools
        self.toolChoice = toolChoice
    }

    /// The question the answer is to: the new one, or the last prompt of the history.
    public var question: String {
        switch next {
        case .question(let question):
            return question
        case .toolOutputs:
            for case .prompt(let prompt) in history.reversed() { return prompt.text }
            return ""
        }
    }
}
