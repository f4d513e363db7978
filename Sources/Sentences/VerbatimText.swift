/// When a quote is retrieved text: its words, in order, as the source has them, with every run
/// of whitespace read as one space. A sentence that a PDF (or hard-wrapped Markdown) wraps over
/// two lines is offered as one quote candidate with a space where the line broke
/// (`SentenceSplitter`), and it must still count as verbatim where quotes are checked
/// (`CitationCheck` in Evaluations). Both sides read whitespace through this one type, so the
/// quote grammar cannot offer what the check rejects.
public enum VerbatimText {
    /// `text` with each run of whitespace (spaces, tabs, line breaks, form feeds) as one space,
    /// and none at either end.
    public static func normalized(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if isWhitespace(character) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }

    /// Whether `character` is whitespace through and through: a space that a combining mark
    /// follows is one character with the mark and stays, so reading text twice reads it alike.
    static func isWhitespace(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { Character($0).isWhitespace }
    }

    /// Whether `quote` is verbatim in `normalizedText`, a text already read by `normalized(_:)`:
    /// byte for byte, as a quote is text copied, not text that reads the same (a string search
    /// by characters misses a quote that begins with a combining mark the text holds after a
    /// space, and Foundation's stops at a NUL).
    public static func contains(_ quote: some StringProtocol, inNormalized normalizedText: String) -> Bool {
        let quote = normalized(quote)
        return !quote.isEmpty && normalizedText.utf8.firstRange(of: quote.utf8) != nil
    }
}
