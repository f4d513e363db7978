/// One row of a ``BudgetReport``: what one part of the request costs and its share of the window.
public struct BudgetSection: Sendable, Hashable, Codable {
    /// Which part of the request the row counts.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case instructions, toolDescription, toolSchema, templateOverhead, transcriptEntry, prompt,
            reservedAnswer

        /// What to change when this kind of section fills the window; used by error messages.
        var remedy: String {
            switch self {
            case .instructions: "shorter instructions"
            case .toolDescription, .toolSchema: "a smaller guide or fewer tools"
            case .templateOverhead: "fewer tools or turns"
            case .transcriptEntry: "a shorter transcript (trim it or start a new session)"
            case .prompt: "a shorter prompt"
            case .reservedAnswer: "a smaller answer reserve"
            }
        }
    }

    public let kind: Kind
    /// The tool's name for tool sections, the entry's id for transcript entries, else nil.
    public let name: String?
    /// The transcript entry's kind, for transcript entries only.
    public let entryKind: BudgetRequest.Entry.Kind?
    /// Readable name of the row: "spotlight_search tool's schema", "transcript's tool output 7".
    public let label: String
    public let tokens: Int
    /// `tokens` divided by the window's size (1.0 = the whole window).
    public let share: Double

    init(kind: Kind, label: String, name: String? = nil, entryKind: BudgetRequest.Entry.Kind? = nil,
         tokens: Int, window: ContextWindow)
    {
        self.kind = kind
        self.label = label
        self.name = name
        self.entryKind = entryKind
        self.tokens = tokens
        self.share = Double(tokens) / Double(window.tokens)
    }
}
