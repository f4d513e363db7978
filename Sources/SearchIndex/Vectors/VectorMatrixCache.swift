/// One reader connection's `VectorMatrix`, loaded on the first search by meaning and kept until
/// a write changes the vectors: every write that adds or removes vectors bumps
/// `meta.vectorGeneration` in its own transaction, and the cache compares it inside the
/// search's read transaction, so it never serves vectors of another state (another process's
/// writes included).
final class VectorMatrixCache {
    private var generation: Int64?
    private var matrix: VectorMatrix?

    /// The matrix of the state the open read transaction sees.
    func matrix(on database: SQLiteDatabase, dimension: Int) throws(SearchIndexError) -> VectorMatrix {
        let stamp = try Self.generation(on: database)
        if let matrix, stamp == generation, matrix.dimension == dimension { return matrix }
        var loaded = VectorMatrix(dimension: dimension)
        let rows = try database.query("SELECT rowid, passage, sentence, data FROM vectors ORDER BY rowid") {
            ($0.integer(0), $0.integer(1), $0.isNull(2) ? nil : Int($0.integer(2)), $0.blob(3) ?? [])
        }
        for (rowid, passage, sentence, blob) in rows {
            guard let vector = QuantizedVector(blob: blob, dimension: dimension) else {
                throw .corruptVectors(rowid: rowid, expectedBytes: 4 + dimension, foundBytes: blob.count)
            }
            loaded.append(item: rowid >> Int64(IndexSchema.passageIndexBits), passage: Int(passage), sentence: sentence, vector)
        }
        matrix = loaded
        generation = stamp
        return loaded
    }

    /// The stamp writes bump whenever they change `vectors` (0 before any).
    static func generation(on database: SQLiteDatabase) throws(SearchIndexError) -> Int64 {
        try database.query("SELECT value FROM meta WHERE key = 'vectorGeneration'") { $0.integer(0) }.first ?? 0
    }
}
