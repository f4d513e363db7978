/// How far one call of `SearchableIndex.embedPendingItems(maximumItems:progress:)` has got: a
/// caller shows it (items done of those waiting, so a rate and the time left follow) and learns
/// from `remainingItems` whether to call again.
public struct EmbeddingProgress: Sendable, Hashable {
    /// Items without vectors when the call began (more when items were added meanwhile).
    public var pendingItems: Int
    /// Items this call has given their vectors so far, each in a committed transaction.
    public var embeddedItems: Int
    /// Sentence pieces whose text went to the embedder.
    public var embeddedPieces: Int
    /// Tokens the embedder read for those pieces, framing included (what embedding costs); nil
    /// when the embedder does not count them.
    public var embeddedTokens: Int?
    /// Sentence pieces that took the vector of an identical text instead (one the index held,
    /// or one earlier in the same chunk): licence texts and boilerplate repeat across files.
    public var reusedPieces: Int

    public init(pendingItems: Int, embeddedItems: Int = 0, embeddedPieces: Int = 0, embeddedTokens: Int? = nil, reusedPieces: Int = 0) {
        self.pendingItems = pendingItems
        self.embeddedItems = embeddedItems
        self.embeddedPieces = embeddedPieces
        self.embeddedTokens = embeddedTokens
        self.reusedPieces = reusedPieces
    }

    /// Items still waiting for vectors: what the next call (or a resumed run) does.
    public var remainingItems: Int { max(0, pendingItems - embeddedItems) }

    /// Whether no item waits any more.
    public var isComplete: Bool { remainingItems == 0 }
}
