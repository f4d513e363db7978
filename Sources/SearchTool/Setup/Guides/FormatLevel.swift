/// How results and descriptions are written (Apple's `FormatLevel`).
public enum FormatLevel: Sendable, Hashable {
    /// One JSON object per result; descriptions with examples.
    case structured
    /// Terse, line-oriented results (`id | value | value`); one-line descriptions.
    case compact
}
