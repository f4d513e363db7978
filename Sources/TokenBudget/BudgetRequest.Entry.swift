extension BudgetRequest {
    /// One transcript entry, reduced to what costs tokens: its kind, an id and its text.
    ///
    /// The kinds are Apple's `Transcript.Entry` cases. The id lets a trimming result say which
    /// entries it dropped or truncated, so the session can record it.
    public struct Entry: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case instructions, prompt, toolCalls, toolOutput, response

            /// Lower-case words for tables and messages ("tool output").
            public var displayName: String {
                switch self {
                case .instructions: "instructions"
                case .prompt: "prompt"
                case .toolCalls: "tool calls"
                case .toolOutput: "tool output"
                case .response: "response"
                }
            }
        }

        public var id: String
        public var kind: Kind
        /// The entry's content as rendered into the prompt (for tool calls, the calls' text).
        public var text: String

        public init(id: String, kind: Kind, text: String) {
            self.id = id
            self.kind = kind
            self.text = text
        }
    }
}
