import Foundation

/// How much of an index has vectors: words are written first and vectors follow in the
/// embedding pass (`EmbeddingPass`), so until it ends a search by meaning sees only part of the
/// items, and the rest are found by their words alone. A search's reply and `ask index --check`
/// say so.
public struct VectorCoverage: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// Items in the index.
    public var itemCount: Int
    /// Items with their vectors (an item has a vector for every piece the embedding pass picks,
    /// `PassageEmbeddingText.piecesPerItem` at most, or none).
    public var embeddedItemCount: Int
    /// Vectors stored: one per sentence piece of the embedded items.
    public var vectorCount: Int

    public init(itemCount: Int, embeddedItemCount: Int, vectorCount: Int) {
        self.itemCount = itemCount
        self.embeddedItemCount = embeddedItemCount
        self.vectorCount = vectorCount
    }

    /// Items still waiting for the embedding pass.
    public var pendingItemCount: Int { max(0, itemCount - embeddedItemCount) }

    /// Whether every item has its vectors.
    public var isComplete: Bool { pendingItemCount == 0 }

    private enum CodingKeys: String, CodingKey {
        case itemCount, embeddedItemCount, pendingItemCount, vectorCount
    }

    /// The counts, the pending items among them (what `ask --json` and `ask index --check --json` print).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(itemCount, forKey: .itemCount)
        try container.encode(embeddedItemCount, forKey: .embeddedItemCount)
        try container.encode(pendingItemCount, forKey: .pendingItemCount)
        try container.encode(vectorCount, forKey: .vectorCount)
    }

    /// "vectors for 151 of 2,689 items".
    public var description: String {
        "vectors for \(embeddedItemCount.formatted()) of \(itemCount.formatted()) items"
    }
}
