/// Anything that can say how many tokens a text costs for one model's vocabulary.
///
/// TokenBudget knows nothing about llama.cpp: LocalModel implements this protocol from a GGUF
/// vocabulary (a vocab-only load is enough), and tests or other backends can bring their own.
public protocol TokenCounter: Sendable {
    /// Tokens in `text` as the model would see it inside a prompt. `parseSpecial` treats
    /// control tokens written as text (`<|im_start|>`) as the single tokens they are.
    func countTokens(in text: String, parseSpecial: Bool) throws -> Int
}

extension TokenCounter {
    /// Tokens in ordinary text, with special-token markup counted as its characters.
    public func countTokens(in text: String) throws -> Int {
        try countTokens(in: text, parseSpecial: false)
    }
}

extension TokenCounter {
    /// Counts `text` for the section named `section`, refusing a negative count (a broken
    /// counter) with a typed error rather than letting it corrupt a report's sums.
    func checkedCount(of text: String, parseSpecial: Bool = false, for section: String) throws -> Int {
        let tokens = try countTokens(in: text, parseSpecial: parseSpecial)
        guard tokens >= 0 else { throw TokenBudgetError.negativeTokenCount(section: section, tokens: tokens) }
        return tokens
    }
}
