/// Which part of an item to read (`SearchableIndex.passage(of:at:)`): one passage by its
/// index, a whole page, or the passage that best matches some words. It lets a caller read page
/// 40 of a manual without reading pages 1–39.
public enum PassagePlace: Sendable, Hashable {
    /// The passage with this index (from 0; `Passage.index`).
    case passage(Int)
    /// Every passage of this 1-based page, as one window.
    case page(Int)
    /// The passage that ranks best (BM25) for these words.
    case matching(String)
}
