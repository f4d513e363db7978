/// A GBNF grammar that constrains generation, and when it starts to apply.
///
/// Tool calls use a *lazy* grammar: free text stays free until the model writes the trigger
/// (`<tool_call>`), and from there every token must fit the call's schema. Guided generation
/// and `.required` tool calling use an immediate grammar, active from the first token.
public struct GrammarConstraint: Sendable, Hashable {
    public enum Activation: Sendable, Hashable {
        /// Constrains from the first generated token.
        case immediate
        /// Waits for a trigger. Patterns are regular expressions matched from the start of the
        /// output; the grammar is fed the text from the pattern's first capture group on.
        /// Tokens trigger when generated (for vocabularies where the trigger is one token).
        case lazy(patterns: [String], tokens: [Token])
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
        GrammarConstraint(gbnf: gbnf, root: root,
                          activation: .lazy(patterns: ["[\\s\\S]*?(" + escapeRegex(trigger) + "[\\s\\S]*)"], tokens: triggerTokens))
    }

    private static func escapeRegex(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
