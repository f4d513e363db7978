/// What the index embeds for an item: one text per sentence piece of each passage
/// (`SentencePieces`), each with the item's title before it (a sentence alone often does not say
/// what it is about), and for a short item also its title with its description, which often
/// sums the note up. A long item gets at most `piecesPerItem` of them (`budgeted`).
enum PassageEmbeddingText {
    /// The most pieces of one item that get a vector. Why a bound: the embedder reads about
    /// 2,900 tokens a second on 2 cores (all-MiniLM-L6-v2 Q8_0, as fast as llama-bench), and the
    /// pieces of a folder's few long files are most of its text (/usr/share/doc: 249,755 pieces
    /// unbounded, 181,526 distinct, over an hour to embed; its median file has 15 pieces, its
    /// 90th percentile 151). With the bound every short file is whole and a long one is reachable
    /// by meaning from every part of it (`budgeted`), while its words, all indexed, find the
    /// rest. On the shipped long-document samples the answers were the same at 16, 20, 32 and
    /// unbounded (SmolLM2, Gemma; the two Qwen2.5-Coder models at 20 and 32), so those samples
    /// do not choose; 20 is the largest that embeds /usr/share/doc within issue 53's ten
    /// minutes with room to spare (a 300-package part of it: 329,283 tokens at 32, 289,040 at
    /// 24, 263,808 at 20; the whole folder 548 s at 20). Every passage of a file up to about
    /// 24 KB keeps its first sentence (passages are about 1.2 KB), a file of 100 KB every
    /// fourth passage's. Time to embed a real folder: the bench's `folder`.
    static let piecesPerItem = 20

    /// One text the index embeds, the passage it belongs to (0 for a short item), and which of
    /// the passage's `SentencePieces` it is (nil for a short item's title and description), so a
    /// hit found by meaning can show that sentence.
    struct Piece: Equatable {
        var passage: Int
        var sentence: Int?
        var text: String
    }

    /// The pieces, in passage order; always at least one.
    static func pieces(of item: SearchableItem) -> [Piece] {
        let set = item.attributeSet
        return pieces(title: [set.title, set.displayName].compactMap { $0.map(ItemStore.clean) }.joined(separator: "\n"),
               description: set.contentDescription.map(ItemStore.clean), body: set.textContent.map(ItemStore.clean) ?? "",
               contentType: set.contentType)
    }

    /// The pieces of an item as the index stores it (its title and display name joined by a
    /// line break, its text, both cleaned), which is what the embedding pass reads back; at
    /// most `piecesPerItem`.
    static func pieces(title: String, description: String?, body: String, contentType: String?) -> [Piece] {
        budgeted(allPieces(title: title, description: description, body: body, contentType: contentType), limit: piecesPerItem)
    }

    /// `pieces` when there are at most `limit`, else `limit` of them in their order, taken
    /// passage start first: the first piece of every passage (a heading and its first sentence
    /// say what the passage is about), then every passage's second, and so on; when one round
    /// holds more than the room left, that round's pieces are taken evenly spaced. So a long
    /// document keeps a vector in every part of it rather than in its first pages only.
    static func budgeted(_ pieces: [Piece], limit: Int) -> [Piece] {
        guard pieces.count > limit else { return pieces }
        var rounds: [[Int]] = []
        var seenInPassage: [Int: Int] = [:]
        for (offset, piece) in pieces.enumerated() {
            let round = seenInPassage[piece.passage, default: 0]
            seenInPassage[piece.passage] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(offset)
        }
        var kept: [Int] = []
        for round in rounds {
            let room = limit - kept.count
            guard room > 0 else { break }
            kept += round.count <= room ? round : (0..<room).map { round[$0 * round.count / room] }
        }
        return kept.sorted().map { pieces[$0] }
    }

    private static func allPieces(title: String, description: String?, body: String, contentType: String?) -> [Piece] {
        func titled(_ text: String) -> String { title.isEmpty ? text : title + "\n" + text }
        let spans = ItemStore.storedPassageSpans(of: body, contentType: contentType)
        guard !spans.isEmpty else {
            let summary = [title, description ?? ""].filter { !$0.isEmpty }.joined(separator: "\n")
            let pieces = SentencePieces.pieces(of: body).enumerated().map { Piece(passage: 0, sentence: $0, text: titled($1)) }
            return summary.isEmpty && !pieces.isEmpty ? pieces : [Piece(passage: 0, sentence: nil, text: summary)] + pieces
        }
        let bytes = Array(body.utf8)
        return spans.enumerated().flatMap { passage, span in
            let text = String(decoding: bytes[(span.start..<span.end).clamped(to: 0..<bytes.count)], as: UTF8.self)
            let pieces = SentencePieces.pieces(of: text).enumerated().map { Piece(passage: passage, sentence: $0, text: titled($1)) }
            return pieces.isEmpty ? [Piece(passage: passage, sentence: nil, text: title)] : pieces
        }
    }
}
