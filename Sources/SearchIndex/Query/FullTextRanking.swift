import Foundation

/// How many full-text matches a relevance-sorted search scores with BM25.
///
/// FTS5 has no top-k pruning: an exact BM25 top 10 scores every item that matches. A search for
/// one word avoids that: it ranks the word's shortlist (`TermShortlist`), a few dozen items, and
/// costs well under a millisecond however many items hold the word. A search for several words
/// that are all common still scores every item holding them all, in time that grows with the
/// index. `.mostRecent(matches:)` bounds that work by ranking only the most recently indexed
/// matches. Core Spotlight has no such knob (its ranking is private); the default stays exact,
/// so nothing changes unless a caller opts in.
public enum FullTextRanking: Sendable, Hashable {
    /// Every match is scored; the results are the true BM25 top N.
    case exact
    /// Only the `matches` most recently indexed matching items (highest insertion order; a
    /// replaced item counts as new) are scored, and the results are the BM25 top N among them.
    /// When fewer items match, this is the same as `.exact`. Applies to queries whose predicate
    /// is a full-text term alone, sorted by relevance; others rank exactly. The cost is then
    /// bounded by `matches` plus one pass over each term's list of items (BM25 needs the number
    /// of items holding each term), which is far cheaper than scoring them.
    case mostRecent(matches: Int)
}
