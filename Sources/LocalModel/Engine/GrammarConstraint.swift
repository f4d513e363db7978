/// A GBNF grammar that constrains generation, and when it starts to apply.
///
/// Tool calls use a *lazy* grammar: free text stays free until the model writes the trigger
/// (`<tool_call>`), and from there every token must fit the call's schema. Guided generation
/// and `.required` tool calling use an immediate grammar, active from the first token.
public struct GrammarConstraint: Sendable, Hashable {
    public enum Activation: Sendable, Hashable {
        /// Constrains from the first generated token.
        case immediate
        /// Waits for one of `triggers` to appear in the output (the earliest wins): each is
        /// literal text, except that a whitespace run in it stands for any whitespace run,
        /// none included (`{ "name" : ` finds `{"name":` and `{\n  "name": `), as models
        /// space a JSON object as they like. When `grammarIncludesTrigger`, the grammar is fed the output from the trigger
        /// on (its root begins with one of the triggers, as a tool call's begins with
        /// `<tool_call>` and a citation with `[`); otherwise from after the trigger and any
        /// whitespace (Qwen3's `</think>`). `tokens` trigger when generated, for vocabularies
        /// that spell a trigger as one token.
        case lazy(triggers: [String], grammarIncludesTrigger: Bool, tokens: [Token])
    }

    public var gbnf: String
    public var root: String
    public var activation: Activation

    public init(gbnf: String, root: String = "root", activation: Activation = .immediate) {
        self.gbnf = gbnf
        self.root = root
        self.activation = activation
    }

    /// A grammar that starts when `trigger` first appears in the output, and constrains the
    /// output from the trigger on (the grammar's root must begin with the trigger text).
    public static func lazy(gbnf: String, root: String = "root", trigger: String, triggerTokens: [Token] = []) -> GrammarConstraint {
        lazy(gbnf: gbnf, root: root, triggers: [trigger], triggerTokens: triggerTokens)
    }

    /// A grammar that starts when the first of `triggers` appears in the output (a tool call's
    /// `<tool_call>` or a citation's `[`), and constrains the output from there on (the root
    /// must begin with that trigger's text).
    public static func lazy(gbnf: String, root: String = "root", triggers: [String], triggerTokens: [Token] = []) -> GrammarConstraint {
        GrammarConstraint(gbnf: gbnf, root: root, activation: .lazy(triggers: triggers, grammarIncludesTrigger: true, tokens: triggerTokens))
    }
}
