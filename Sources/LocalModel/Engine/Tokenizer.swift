import TokenBudget

/// Converts between text and a model's tokens.
///
/// Cheap to copy; it shares the loaded model. It is TokenBudget's counter for this model.
public struct Tokenizer: TokenCounter {
    let handle: LlamaModelHandle

    /// Tokens for `text`. `addSpecial` adds the model's beginning-of-sequence token when it
    /// uses one; `parseSpecial` reads control-token markup (`<|im_start|>`) as single tokens.
    public func tokenize(_ text: String, addSpecial: Bool = false, parseSpecial: Bool = true) throws(LocalModelError) -> [Token] {
        try handle.tokenize(text, addSpecial: addSpecial, parseSpecial: parseSpecial)
    }

    /// Tokens for a rendered prompt, as the engine decodes it: markup runs with control tokens
    /// parsed, content runs as plain text (see `RenderedPrompt`). `addSpecial` adds the
    /// beginning-of-sequence token when the model uses one.
    public func tokenize(_ prompt: RenderedPrompt, addSpecial: Bool = true) throws(LocalModelError) -> [Token] {
        try handle.tokenize(prompt, addSpecial: addSpecial)
    }

    /// Text for `tokens`. With `renderSpecial` false, control tokens are left out.
    public func detokenize(_ tokens: [Token], renderSpecial: Bool = true) -> String {
        String(decoding: tokens.flatMap { handle.pieceBytes($0, renderSpecial: renderSpecial) }, as: UTF8.self)
    }

    /// The raw bytes of one token; may end inside a multi-byte UTF-8 character.
    public func pieceBytes(_ token: Token, renderSpecial: Bool = true) -> [UInt8] {
        handle.pieceBytes(token, renderSpecial: renderSpecial)
    }

    public func isEndOfGeneration(_ token: Token) -> Bool { handle.isEndOfGeneration(token) }

    public func countTokens(in text: String, parseSpecial: Bool) throws -> Int {
        try handle.tokenize(text, addSpecial: false, parseSpecial: parseSpecial).count
    }
}
