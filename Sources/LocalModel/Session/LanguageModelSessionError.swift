import TokenBudget

extension LanguageModelSession {
    /// Why a response failed (Apple's `LanguageModelSession.GenerationError`, with messages
    /// that say what happened and what to do instead of a bare code).
    public enum GenerationError: Error, Sendable, CustomStringConvertible {
        /// The request does not fit the context window; the budget error names what filled it.
        case exceededContextWindowSize(TokenBudgetError)
        /// The engine failed (bad grammar, decode failure, prompt too long, …).
        case engineFailure(LocalModelError)
        /// The model kept calling tools when it had to answer: past the session's round limit,
        /// or after a round that only repeated earlier calls.
        case toolRoundLimitReached(rounds: Int)
        /// The model's template is one Lantern cannot render.
        case unsupportedChatTemplate(family: String)
        /// A tool's schema cannot be compiled to a grammar.
        case invalidToolSchema(tool: String, SchemaError)
        /// The schema of a guided-generation type cannot be turned into a grammar; found
        /// before anything is decoded, and the error names the construct and where it is.
        case invalidGenerationSchema(type: String, SchemaError)
        /// A guided-generation answer could not be decoded into the requested type.
        case decodingFailure(type: String, rawText: String, reason: String)
        /// The response's task was cancelled.
        case cancelled
        /// `respond` was called while another response of the same session was running.
        case concurrentRequests
        /// The session's `history` cannot be the start of a conversation; the reason names the entry.
        case invalidHistory(String)
        /// `respond(continuingWith:)` had nothing to continue, or outputs that do not answer
        /// the calls the last response ended with; the reason says which.
        case cannotContinue(String)

        public var description: String {
            switch self {
            case .exceededContextWindowSize(let error): return error.description
            case .engineFailure(let error): return error.description
            case .toolRoundLimitReached(let rounds):
                return "the model called tools for \(rounds) rounds and, asked to answer from their output (at the round limit, or after it only repeated earlier calls), tried to call another; raise maximumToolRounds, or make the question narrower"
            case .unsupportedChatTemplate(let family):
                return "the model's chat template (\(family)) is none that llama.cpp or Lantern recognises; name the layout it was trained on with --chat-template NAME (LocalModel.Configuration.chatTemplate), one of: \(ChatTemplate.acceptedNames.joined(separator: ", "))"
            case .invalidToolSchema(let tool, let error):
                return "the arguments schema of tool \(tool) cannot be turned into a grammar: \(error)"
            case .invalidGenerationSchema(let type, let error):
                return "the generation schema of \(type) cannot be turned into a grammar: \(error)"
            case .decodingFailure(let type, let rawText, let reason):
                return "the generated answer could not be decoded as \(type): \(reason); raw text: \(rawText)"
            case .cancelled: return "the response was cancelled"
            case .concurrentRequests: return "the session is already responding; wait for that response before asking again"
            case .invalidHistory(let reason): return "the session's history cannot start a conversation: \(reason)"
            case .cannotContinue(let reason): return "the response cannot be continued: \(reason)"
            }
        }
    }

    /// A tool threw, and the session was set to stop rather than tell the model (Apple's
    /// `LanguageModelSession.ToolCallError`).
    public struct ToolCallError: Error, Sendable, CustomStringConvertible {
        public let tool: any Tool
        public let underlyingError: any Error

        public var description: String { "tool \(tool.name) failed: \(underlyingError)" }
    }

    /// What happens when a tool throws.
    public enum ToolErrorPolicy: Sendable, Hashable {
        /// The error text goes back to the model as the tool's response (the default): one bad
        /// call never takes down the session, and the model can correct itself.
        case reportToModel
        /// The response ends with a `ToolCallError`.
        case throwToCaller
    }
}
