/// One text's vector from an `EmbeddingModel`, with what the model actually read of the text.
public struct Embedding: Sendable, Hashable {
    /// The vector, of unit length: the dot product of two embeddings is their cosine similarity.
    public let vector: [Float]
    /// Tokens the model read, its framing tokens (BERT's [CLS] and [SEP]) included.
    public let tokenCount: Int
    /// Tokens cut off the end of the text because it was longer than the model reads
    /// (`EmbeddingModel.maximumTokensPerText`); 0 when the whole text was read.
    public let droppedTokenCount: Int

    /// Whether the vector stands for only the beginning of the text. Callers that need all of a
    /// long text embedded split it first (passages are the unit the index embeds).
    public var isTruncated: Bool { droppedTokenCount > 0 }
}
