/// The passage of a search result that best matches the query's words, and the snippet of it
/// a result shows: what lets a model read the sentence that answers without fetching the item.
public struct PassageMatch: Sendable, Hashable {
    /// The best-matching passage (BM25 over the item's passages), whole.
    public var passage: Passage
    /// At most the query's `snippetLength` UTF-8 bytes of the passage around the matched words,
    /// cut at word boundaries, with "…" where it was cut.
    public var snippet: String
    /// The query's words the passage holds (as the query wrote them), in query order.
    public var matchedWords: [String]

    public init(passage: Passage, snippet: String, matchedWords: [String]) {
        self.passage = passage
        self.snippet = snippet
        self.matchedWords = matchedWords
    }
}
