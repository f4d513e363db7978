/// Watches the output for a lazy grammar's triggers.
///
/// llama.cpp's lazy grammar appends each token's text to a buffer and matches its trigger
/// regex (std::regex) over the whole buffer at every token, so a long free-text answer costs
/// more per token the longer it gets (about 5% of a 250-token answer's time). Before the
/// trigger the grammar constrains nothing, so it is not fed at all; this watch looks for the
/// literal triggers in the last few tokens instead, and hands over the tokens from the one
/// where the trigger begins: the grammar's regex then runs over a few dozen bytes, once.
struct TriggerWatch {
    /// The triggers; the one that starts earliest in the output wins.
    let triggers: [[UInt8]]
    let tokens: Set<Token>
    private var recent: [(token: Token, bytes: [UInt8])] = []
    /// The longest trigger's length: how much text before the newest token is kept.
    private let longest: Int

    init(triggers: [[UInt8]], tokens: Set<Token>) {
        self.triggers = triggers.filter { !$0.isEmpty }
        self.tokens = tokens
        longest = self.triggers.map(\.count).max() ?? 0
    }

    /// Records a generated token; once a trigger is complete, the tokens to feed the
    /// grammar (from the one where the trigger begins) and their text from the trigger on,
    /// else nil.
    mutating func record(_ token: Token, bytes: [UInt8]) -> (tokens: [Token], text: [UInt8])? {
        if tokens.contains(token) { return ([token], bytes) }
        recent.append((token, bytes))
        // Keep the newest token and enough before it to hold a trigger that ends in it.
        while recent.count > 1, recent.dropFirst().dropLast().reduce(0, { $0 + $1.bytes.count }) >= longest {
            recent.removeFirst()
        }
        let text = recent.flatMap(\.bytes)
        let starts = triggers.compactMap { trigger -> Int? in
            guard text.count >= trigger.count else { return nil }
            return (0...(text.count - trigger.count)).first { text[$0..<($0 + trigger.count)].elementsEqual(trigger) }
        }
        guard let start = starts.min() else { return nil }
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
