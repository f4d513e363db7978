/// A compiled llama.cpp GBNF grammar and the rule generation starts from.
///
/// Passed as-is to `llama_sampler_init_grammar` (or the lazy variant for tool calls).
public struct Grammar: Sendable, Hashable, CustomStringConvertible {
    /// The grammar text: one `name ::= body` rule per line, the start rule first.
    public let gbnf: String
    /// The start rule's name.
    public let root: String

    public init(gbnf: String, root: String) {
        self.gbnf = gbnf
        self.root = root
    }

    public var description: String { gbnf }
}
