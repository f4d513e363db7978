import Foundation

/// The stage that gives items their vectors after their words are written, so an index is
/// searchable by words at full-text speed and by meaning as the vectors arrive.
///
/// It works in chunks, each read from the index (items with no vector, in rowid order), embedded
/// in one embedder call and written in one transaction (`store(_:)`, inside the owner's
/// `write`): an interrupted pass (a cancelled task, Ctrl-C, kill -9) keeps every chunk it
/// committed, and the next one starts with the items still without vectors, so no finished work
/// is done again. Only vectors are written, never an item's words. A piece whose text the index
/// already holds, or that came earlier in the chunk, takes that vector (by `hash(_:)`) instead
/// of going to the embedder. Owned by `SearchableIndex`, on its writer connection.
struct EmbeddingPass {
    let database: SQLiteDatabase

    /// Pieces a chunk gathers before it is embedded (one item with more is a chunk of its own):
    /// a few seconds of the embedder, so an interruption loses little and progress moves.
    static let piecesPerChunk = 256
    /// Items read at a time while gathering a chunk.
    static let itemsPerRead = 32

    /// An item waiting for its vectors, as it was stored when the chunk read it.
    struct PendingItem {
        var rowid: Int64
        var storedText: [UInt8]
        var contentType: String?
        var pieces: [PassageEmbeddingText.Piece]
        var hashes: [Int64]
    }

    /// Items to embed together, with the stored vector of each distinct piece text by hash:
    /// those the index already held, and after `fill(_:)` the ones embedded.
    struct Chunk {
        var items: [PendingItem] = []
        var vectors: [Int64: [UInt8]] = [:]
        /// Distinct texts the index holds no vector of, to embed, in order.
        var missing: [(hash: Int64, text: String)] = []
        /// Items whose stored text cannot be read (corrupt): passed over, since there is no
        /// text to embed; fetching one hands it to the delegate to index again.
        var unreadable = 0
        /// The last rowid read: the next chunk starts after it.
        var lastRowid: Int64 = 0

        var pieceCount: Int { items.reduce(0) { $0 + $1.pieces.count } }
        var reusedCount: Int { pieceCount - missing.count }

        /// Stores the embedder's vectors of `missing`, in its order.
        mutating func fill(_ embedded: [[Float]]) {
            for (piece, vector) in zip(missing, embedded) { vectors[piece.hash] = QuantizedVector(vector).blob }
        }
    }

    /// Items with no vector: none of their rowid range in `vectors` (`IndexSchema.passageRowid`).
    private static let withoutVectors: SQL = "NOT EXISTS (SELECT 1 FROM vectors v WHERE v.rowid BETWEEN i.rowid << 20 AND (i.rowid << 20) + 1048575)"

    /// How many items have no vectors yet.
    func pendingItemCount() throws(SearchIndexError) -> Int {
        Int(try database.query("SELECT count(*) FROM items i WHERE \(Self.withoutVectors)") { $0.integer(0) }.first ?? 0)
    }

    /// The next items without vectors after rowid `after`, at most `maximumItems`, up to
    /// `piecesPerChunk` pieces (at least one item); nil when none is left.
    func chunk(after: Int64, maximumItems: Int) throws(SearchIndexError) -> Chunk? {
        var chunk = Chunk(lastRowid: after)
        var seen = Set<Int64>()
        while chunk.items.count + chunk.unreadable < maximumItems {
            let rows = try database.query("""
                SELECT i.rowid, i."contentDescription", i."contentType", t.data FROM items i JOIN item_text t ON t.rowid = i.rowid \
                WHERE i.rowid > \(chunk.lastRowid) AND \(Self.withoutVectors) ORDER BY i.rowid \
                LIMIT \(min(maximumItems - chunk.items.count - chunk.unreadable, Self.itemsPerRead))
                """) { ($0.integer(0), $0.text(1), $0.text(2), $0.blob(3) ?? []) }
            for (rowid, description, contentType, stored) in rows {
                guard let text = TextCompression.decode(stored),
                      case let parts = text.split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false), parts.count == 3 else {
                    chunk.unreadable += 1
                    chunk.lastRowid = rowid
                    continue
                }
                let pieces = PassageEmbeddingText.pieces(title: String(parts[0]), description: description, body: String(parts[2]),
                                                         contentType: contentType)
                if !chunk.items.isEmpty, chunk.pieceCount + pieces.count > Self.piecesPerChunk { return chunk }
                let hashes = pieces.map { Self.hash($0.text) }
                for (piece, hash) in zip(pieces, hashes) where seen.insert(hash).inserted {
                    if let stored = try database.query("SELECT data FROM vectors WHERE hash = \(hash) LIMIT 1", { $0.blob(0) }).first, let stored {
                        chunk.vectors[hash] = stored
                    } else {
                        chunk.missing.append((hash, piece.text))
                    }
                }
                chunk.items.append(PendingItem(rowid: rowid, storedText: stored, contentType: contentType, pieces: pieces, hashes: hashes))
                chunk.lastRowid = rowid
            }
            if rows.count < Self.itemsPerRead || chunk.pieceCount >= Self.piecesPerChunk { break }
        }
        return chunk.items.isEmpty && chunk.unreadable == 0 ? nil : chunk
    }

    /// Writes the chunk's vectors; call inside a write transaction. An item changed or deleted
    /// since the chunk read it (its stored text or type differ), or given vectors meanwhile by
    /// another writer, is left alone. Returns how many items got vectors.
    func store(_ chunk: Chunk) throws(SearchIndexError) -> Int {
        var written = 0
        for item in chunk.items {
            let contentType = item.contentType.map(SQLiteValue.text) ?? .null
            let (first, last) = IndexSchema.passageRowids(item: item.rowid)
            let unchanged = try database.query("""
                SELECT 1 FROM items i JOIN item_text t ON t.rowid = i.rowid WHERE i.rowid = \(item.rowid) \
                AND t.data = \(SQLiteValue.blob(item.storedText)) AND i."contentType" IS \(contentType) \
                AND NOT EXISTS (SELECT 1 FROM vectors WHERE rowid BETWEEN \(first) AND \(last))
                """) { _ in true }
            guard !unchanged.isEmpty else { continue }
            for (number, (piece, hash)) in zip(item.pieces, item.hashes).enumerated() {
                guard let vector = chunk.vectors[hash] else {
                    throw .embeddingFailed(reason: "no vector for a piece of the item at rowid \(item.rowid)")
                }
                try database.run("""
                    INSERT INTO vectors(rowid, passage, sentence, hash, data) VALUES(\(IndexSchema.passageRowid(item: item.rowid, index: number)), \
                    \(piece.passage), \(piece.sentence.map { SQLiteValue.integer(Int64($0)) } ?? .null), \(hash), \(SQLiteValue.blob(vector)))
                    """)
            }
            written += 1
        }
        return written
    }

    /// FNV-1a (64 bits) of the text's UTF-8: identical texts share a vector. Among the few
    /// million pieces an index holds, two different texts sharing a hash is about a chance in a
    /// million million, and would cost one piece a wrong vector, not an error.
    static func hash(_ text: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
