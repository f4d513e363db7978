import Foundation

/// Everything a session has said and heard, in order (Apple's `Transcript`).
///
/// The transcript is what the session renders into the prompt each turn, so it holds tool
/// calls and their outputs as well as prompts and responses. (Calls that repeated earlier ones
/// are recorded but not rendered; see `LanguageModelSession.RepeatedToolCallPolicy`.)
public struct Transcript: Sendable, Hashable, RandomAccessCollection {
    public private(set) var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// One item of the transcript.
    public enum Entry: Sendable, Hashable, Identifiable {
        case instructions(Instructions)
        case prompt(Prompt)
        case toolCalls(ToolCalls)
        case toolOutput(ToolOutput)
        case response(Response)

        public var id: String {
            switch self {
            case .instructions(let entry): entry.id
            case .prompt(let entry): entry.id
            case .toolCalls(let entry): entry.id
            case .toolOutput(let entry): entry.id
            case .response(let entry): entry.id
            }
        }
    }

    /// The system instructions and the tools offered with them.
    public struct Instructions: Sendable, Hashable {
        public var id: String
        public var text: String
        /// The names of the tools described to the model.
        public var toolNames: [String]
    }

    /// What the user asked; attachments are recorded by label.
    public struct Prompt: Sendable, Hashable {
        public var id: String
        /// The text as the model reads it (attachment labels included).
        public var text: String
        public var attachments: [ImageAttachment]
        public var options: GenerationOptions
    }

    /// The calls the model made in one turn.
    public struct ToolCalls: Sendable, Hashable {
        public var id: String
        public var calls: [ToolCall]
        /// The model's text for the turn as generated (re-rendered verbatim, so the KV cache
        /// still matches next turn), less calls that repeated earlier ones: their outputs are in
        /// the prompt once. Empty when every call repeated one; the turn is then left out.
        public var rawText: String
    }

    /// One call: which tool, with what arguments.
    public struct ToolCall: Sendable, Hashable, Identifiable {
        /// The call id, which its output refers to.
        public var id: String
        public var toolName: String
        public var arguments: GeneratedContent
    }

    /// What a tool returned (or the error it threw), as the model reads it.
    public struct ToolOutput: Sendable, Hashable {
        /// The id of the call this answers.
        public var id: String
        public var toolName: String
        public var text: String
        /// Whether the tool threw; `text` then describes the error.
        public var isError: Bool
        /// When the call repeated an earlier one of the same response and was not run again
        /// (`RepeatedToolCallPolicy.reuseEarlierOutput`): that call's id, whose output stands.
        public var repeatedCallID: String? = nil
    }

    /// The model's answer, with any thinking removed.
    public struct Response: Sendable, Hashable {
        public var id: String
        public var text: String
    }
}

extension Transcript.Entry {
    /// The entry as plain text, the way it appears inside the prompt.
    public var text: String {
        switch self {
        case .instructions(let entry): entry.text
        case .prompt(let entry): entry.text
        case .toolCalls(let entry): entry.rawText
        case .toolOutput(let entry): entry.text
        case .response(let entry): entry.text
        }
    }
}
