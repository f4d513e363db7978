/// What the index embeds for an item: one text per sentence piece of each passage
/// (`SentencePieces`), each with the item's title before it (a sentence alone often does not say
/// what it is about), and for a short item also its title with its description, which often
/// sums the note up.
enum PassageEmbeddingText {
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
    /// line break, its text, both cleaned), which is what the embedding pass reads back.
    static func pieces(title: String, description: String?, body: String, contentType: String?) -> [Piece] {
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
