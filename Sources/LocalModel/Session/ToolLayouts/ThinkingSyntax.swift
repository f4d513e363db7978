/// How a family thinks before it answers, and how that is switched off.
public struct ThinkingSyntax: Sendable, Hashable {
    /// The block's tags (`<think>`, `</think>`): the block is hidden from the answer, and a
    /// grammar starts after its close.
    public var open: String
    public var close: String
    /// Appended to the system text when thinking is off (Qwen3's ` /no_think`); nil when the
    /// family has no switch.
    public var offSwitch: String?
    /// What opens the assistant's turn when thinking is off (an empty block, as Qwen's template
    /// writes it for `enable_thinking=false`), so the model answers at once; nil when the family
    /// has no switch.
    public var emptyBlock: String?

    /// `<think>` blocks with no switch: models of a family without one that think anyway (QwQ
    /// and SmolLM3 write ChatML), whose blocks are hidden from the answer.
    public static let thinkTags = ThinkingSyntax(open: "<think>", close: "</think>")

    /// Qwen3: `<think>` blocks, `/no_think`, and an empty block when off.
    public static let qwen3 = ThinkingSyntax(open: "<think>", close: "</think>", offSwitch: " /no_think", emptyBlock: "<think>\n\n</think>\n\n")
}
