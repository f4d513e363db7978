/// A request after trimming: the request that fits, its report, and what was changed to get there.
public struct TrimmedRequest: Sendable, Hashable {
    /// The request with its transcript trimmed. Its template overhead is the original request's
    /// count, fixed as `.tokens(_)`; see ``TranscriptTrimmingPolicy``.
    public let request: BudgetRequest
    /// The trimmed request's report; it fits.
    public let report: BudgetReport
    /// What was dropped or truncated, in the order it was done; empty when nothing had to change.
    public let actions: [TrimAction]
}
