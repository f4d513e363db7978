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

    public init(id: String, text: String, location: String? = nil) {
        self.id = id
        self.text = text
        self.location = location
    }
}
