/// Watches the output for a lazy grammar's trigger.
///
/// llama.cpp's lazy grammar appends each token's text to a buffer and matches its trigger
/// regex (std::regex) over the whole buffer at every token, so a long free-text answer costs
/// more per token the longer it gets (about 5% of a 250-token answer's time). Before the
/// trigger the grammar constrains nothing, so it is not fed at all; this watch looks for the
/// literal trigger in the last few tokens instead, and hands over the tokens from the one
/// where the trigger begins: the grammar's regex then runs over a few dozen bytes, once.
struct TriggerWatch {
    let trigger: [UInt8]
    let tokens: Set<Token>
    private var recent: [(token: Token, bytes: [UInt8])] = []

    init(trigger: [UInt8], tokens: Set<Token>) {
        self.trigger = trigger
        self.tokens = tokens
    }

    /// Records a generated token; once the trigger is complete, the tokens to feed the
    /// grammar (from the one where the trigger begins) and their text from the trigger on,
    /// else nil.
    mutating func record(_ token: Token, bytes: [UInt8]) -> (tokens: [Token], text: [UInt8])? {
        if tokens.contains(token) { return ([token], bytes) }
        recent.append((token, bytes))
        // Keep the newest token and enough before it to hold a trigger that ends in it.
        while recent.count > 1, recent.dropFirst().dropLast().reduce(0, { $0 + $1.bytes.count }) >= trigger.count {
            recent.removeFirst()
        }
        let text = recent.flatMap(\.bytes)
        guard !trigger.isEmpty, text.count >= trigger.count,
              let start = (0...(text.count - trigger.count)).first(where: { text[$0..<($0 + trigger.count)].elementsEqual(trigger) })
        else { return nil }
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
