extension BudgetRequest {
    /// The tokens the chat template adds around the content (role markers, turn separators,
    /// the tool-definition wrapper), given in whichever form the session has at hand.
    public enum TemplateOverhead: Sendable, Hashable {
        /// The session already knows the count.
        case tokens(Int)
        /// The template rendered with every content left empty; counted with special tokens
        /// parsed, so `<|im_start|>` costs one token as it does in the real prompt.
        case emptyTemplate(String)
        /// The whole rendered prompt (without the answer). The overhead is its count, with
        /// special tokens parsed, minus the counts of the parts; never below zero, since
        /// tokens merging across a part's boundary can make the difference slightly negative.
        case renderedPrompt(String)
    }
}
