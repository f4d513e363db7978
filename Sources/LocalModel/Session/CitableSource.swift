/// Text a tool showed the model that an answer may cite: an item of a search result, a fetched
/// document, a page an OCR tool read.
///
/// A tool attaches the sources it showed to its `ToolResult`; the session collects those of one
/// response's tool outputs, and in the answer round a citation marker (`[id]`, see `Citation`)
/// can only name one of them, and in quote mode every sentence is one of their sentences. Apple's
/// `Tool` has no such notion: its answers are free text, so nothing ties them to what a tool
/// returned. A tool that attaches none still has its output quoted and cited as one source
/// named after the tool (`ResponseSources`).
public struct CitableSource: Sendable, Hashable, Codable {
    /// What a citation names, as the model saw it in the tool's output (`trail-003`). An id
    /// holding `[`, `]` or a line break cannot be written as a marker and is never offered.
    public var id: String
    /// The text of the source the model was shown (a result's title and description, a
    /// fetched item's text): what quotes are taken from and checked against.
    public var text: String
    /// Where in the item the text is ("page 40", "lines 10-20"); nil for the whole item.
    public var location: String?
    /// Whether the text is an item's or the tool's own result.
    public var kind: Kind
    /// The tool computed what the question asks (a count for "how many", the matches for
    /// "which trails", the average it names), not only what the model's query asked for: a
    /// quoted answer begins with it.
    public var answersQuestion: Bool

    /// What a source's text is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Text of one item the tool showed (a result row, a fetched document).
        case item
        /// What the tool computed: a count, a statistic, groups. It can be the whole answer to
        /// "how many" (`4 items match.`), so the answer round may quote it like an item's text;
        /// the session names it after the tool (`spotlight_search`), whatever `id` the tool gave.
        case result
    }

    public init(id: String, text: String, location: String? = nil, kind: Kind = .item, answersQuestion: Bool = false) {
        self.id = id
        self.text = text
        self.location = location
        self.kind = kind
        self.answersQuestion = answersQuestion
    }
}
