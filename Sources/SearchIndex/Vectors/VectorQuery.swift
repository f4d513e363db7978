/// A search's vector side, worked out before the read (embedding the query text is async):
/// the query's vector and the reader connection's vectors to rank it against.
struct VectorQuery {
    var vector: [Float]
    var matrix: VectorMatrixCache

    /// Items each side of a hybrid search ranks before fusion (more when the page reaches
    /// further): enough that an item ranked well by one side alone still makes the top ten.
    static let candidateCount = 100
}
