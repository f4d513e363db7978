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
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }

    /// Whether `quote` is verbatim in `normalizedText`, a text already read by `normalized(_:)`.
    public static func contains(_ quote: some StringProtocol, inNormalized normalizedText: String) -> Bool {
        let quote = normalized(quote)
        return !quote.isEmpty && normalizedText.contains(quote)
    }
}
