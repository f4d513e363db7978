/// What one call of a tool gives the session (`Tool.result(for:)`): the text the model reads
/// and, beside it, typed values for the app. The session records both in the call's transcript
/// entry, the text as a `.text` segment and each value as a `.structure` segment, so an app
/// reads a call's results from the call's own output instead of matching a side stream to it.
public struct ToolResult: Sendable {
    /// What the model reads.
    public var text: String
    /// Values the model never reads, in the order an app reads them back
    /// (`Transcript.ToolOutput.structuredContents(as:)`).
    public var structuredContent: [any Sendable & Hashable]
    /// The retrieved text this output showed the model, which the answer may cite and quote
    /// (`CitableSource`); empty for a tool whose whole output is one source.
    public var sources: [CitableSource]

    public init(text: String, structuredContent: [any Sendable & Hashable] = [], sources: [CitableSource] = []) {
        self.text = text
        self.structuredContent = structuredContent
        self.sources = sources
    }
}
