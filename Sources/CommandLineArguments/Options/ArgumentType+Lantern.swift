import SearchTool
import TokenBudget

extension ArgumentType where Element == ContextWindow {
    /// `4k`, `8k`, `32k` or a number of tokens.
    package static var contextWindow: Self {
        Self(valueName: "4k|8k|32k|N", requirement: "must be 4k, 8k, 32k or a number of tokens",
             describe: { $0.description }, read: { ContextWindow(parsing: $0) })
    }
}

extension ArgumentType where Element == FormatLevel {
    /// `compact` or `structured`.
    package static var format: Self { .oneOf([("compact", .compact), ("structured", .structured)]) }
}
