import Foundation

/// Why a request cannot be budgeted or does not fit; each message says what to change.
public enum TokenBudgetError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The request, with its answer reserve, is larger than the window (from
    /// ``BudgetReport/enforce()``). Apple's equivalent names nothing; this names the biggest parts.
    case contextWindowExceeded(BudgetOverflow)
    /// Even with every droppable transcript entry gone, the instructions, tools, new prompt and
    /// answer reserve do not fit (from ``TranscriptTrimmingPolicy``).
    case essentialsExceedContextWindow(BudgetOverflow)
    /// A window of zero or fewer tokens can hold nothing.
    case invalidContextWindow(ContextWindow)
    /// A section was given, or a counter returned, a negative token count.
    case negativeTokenCount(section: String, tokens: Int)

    public var description: String {
        switch self {
        case .contextWindowExceeded(let overflow):
            overflow.explanation
        case .essentialsExceedContextWindow(let overflow):
            "even with the transcript trimmed away, the " + overflow.explanation
        case .invalidContextWindow(let window):
            "a context window of \(window.tokens) tokens cannot hold any request; "
                + "use a positive size such as 4K (4,096)"
        case .negativeTokenCount(let section, let tokens):
            "the \(section) has \(NumberText.grouped(tokens)) tokens, but a token count cannot be negative; "
                + "pass zero or more (or fix the token counter that returned it)"
        }
    }

    public var errorDescription: String? { description }
}
