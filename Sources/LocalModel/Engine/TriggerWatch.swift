/// Watches the output for a lazy grammar's triggers.
///
/// llama.cpp's lazy grammar appends each token's text to a buffer and matches its trigger
/// regex (std::regex) over the whole buffer at every token, so a long free-text answer costs
/// more per token the longer it gets (about 5% of a 250-token answer's time). Before the
/// trigger the grammar constrains nothing, so it is not fed at all; this watch looks for the
/// triggers in the last few tokens instead, and hands over the tokens from the one where the
/// trigger begins: the grammar's regex then runs over a few dozen bytes, once.
///
/// A whitespace run in a trigger stands for any whitespace run (`LenientPattern`), as in the
/// regex `LlamaGrammar` gives llama.cpp: a model spaces a JSON call object as it likes.
struct TriggerWatch {
    /// The triggers; the one that starts earliest in the output wins.
    let triggers: [LenientPattern]
    let tokens: Set<Token>
    private var recent: [(token: Token, bytes: [UInt8])] = []
    /// How much text before the newest token is kept: the longest trigger without its
    /// whitespace, and room for the whitespace a model may put between its parts.
    private let kept: Int

    /// Whitespace kept for between a trigger's parts: an indented JSON object's line break and
    /// indentation, with room to spare.
    static let spacing = 64

    init(triggers: [String], tokens: Set<Token>) {
        self.triggers = triggers.map(LenientPattern.init).filter { !$0.compact.isEmpty }
        self.tokens = tokens
        kept = (self.triggers.map(\.compact.utf8.count).max() ?? 0) + Self.spacing
    }

    /// Records a generated token; once a trigger is complete, the tokens to feed the
    /// grammar (from the one where the trigger begins) and their text from the trigger on,
    /// else nil.
    mutating func record(_ token: Token, bytes: [UInt8]) -> (tokens: [Token], text: [UInt8])? {
        if tokens.contains(token) { return ([token], bytes) }
        recent.append((token, bytes))
        // Keep the newest token and enough before it to hold a trigger that ends in it.
        while recent.count > 1, recent.dropFirst().dropLast().reduce(0, { $0 + $1.bytes.count }) >= kept {
            recent.removeFirst()
        }
        let text = recent.flatMap(\.bytes)
        let start = text.indices.first { start in
            triggers.contains { trigger in
                if case .complete = trigger.match(inUTF8: text, at: start) { return true }
                return false
            }
        }
        guard let start else { return nil }
        var offset = 0
        for (index, entry) in recent.enumerated() {
            offset += entry.bytes.count
            if offset > start { return (recent[index...].map(\.token), Array(text[start...])) }
        }
        return nil
    }

    /// Drops what was seen so far, so a trigger already found is not found again.
    mutating func forget() { recent.removeAll() }
}
