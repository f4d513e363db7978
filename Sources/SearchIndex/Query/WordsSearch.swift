/// How the words of a query find and rank items (`SearchQuery.wordsSearch`), so a caller (or an
/// evaluation comparing the three) can choose between words, meaning and both.
public enum WordsSearch: String, Sendable, Hashable, CaseIterable {
    /// The words' BM25 ranking and their ranking by meaning, fused (`RankFusion`), on an index
    /// with an embedder; full text alone on an index without one. The default: a question in
    /// other words than the note's still finds it, and an exact word still ranks first.
    case hybrid
    /// The words' full-text match and BM25 ranking only, as on an index without vectors.
    case fullText = "full-text"
    /// The words' meaning only: items rank by their best passage's nearness to the words,
    /// whether or not they hold them (the index needs an embedder).
    case meaning
}
