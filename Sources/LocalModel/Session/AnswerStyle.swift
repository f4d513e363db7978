extension GenerationOptions {
    /// How an answer that follows tool outputs is written (a Lantern addition: Apple's answers
    /// are always free prose).
    public enum AnswerStyle: String, Sendable, Hashable, CaseIterable {
        /// Free prose; citation markers, when on, can only name shown sources.
        case prose
        /// Verbatim sentences of the shown sources, each followed by its citation marker, after
        /// an optional short lead-in: the grammar is built from those sentences, so every claim
        /// is a quote that can be checked. Falls back to prose when no tool output was shown.
        case quote
        /// `.quote` for models with fewer than `quoteParameterLimit` parameters, `.prose` for
        /// larger ones and for models that do not say their size.
        case automatic

        /// Below this many parameters `.automatic` quotes. Measured on the shipped sample set
        /// (README, "Grounded answers"; Benchmarks/RESULTS.md): SmolLM2-135M's prose holds no
        /// retrieved sentence (quote fidelity 0%) and invents places, its quotes are all
        /// retrieved text, and quoting took two thirds of prose's time; neither style grounds
        /// its answers' facts (3% prose, 0% quote), so the rule rests on fidelity, not on
        /// grounding. Qwen2.5-Coder-1.5B (1.5B) quotes better than it writes prose on the same
        /// set: answer coverage 37.4% against 21.0%, cited coverage 37.4% against 2.9%, grounded
        /// 12.1% both; so the line is above it, at 2B, where our measurements stop.
        public static let quoteParameterLimit: UInt64 = 2_000_000_000

        /// The style for a model of `parameterCount` parameters (nil: unknown).
        public func resolved(parameterCount: UInt64?) -> AnswerStyle {
            guard self == .automatic else { return self }
            guard let parameterCount else { return .prose }
            return parameterCount < Self.quoteParameterLimit ? .quote : .prose
        }
    }
}
