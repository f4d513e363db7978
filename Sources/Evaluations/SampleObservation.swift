import LocalModel
import SearchTool

/// What one run of a sample produced: everything the metrics are computed from, so they can be
/// checked on hand-made transcripts without a model.
public struct SampleObservation: Sendable {
    /// The final answer ("" when the response failed).
    public var answer: String
    /// The transcript entries of the response (prompt, calls, outputs, answer).
    public var entries: [Transcript.Entry]
    /// Every reply the search tool's `searchResults` stream carried during the response.
    public var replies: [SearchReply]
    /// Where the time went; engine parts are zero when the response failed before finishing.
    public var latency: Latency
    /// Tokens spent; zero when the response failed before finishing.
    public var tokens: TokenCounts
    /// Why the response failed, when it did.
    public var error: String?

    public init(answer: String, entries: [Transcript.Entry], replies: [SearchReply],
                latency: Latency = Latency(), tokens: TokenCounts = TokenCounts(), error: String? = nil) {
        self.answer = answer
        self.entries = entries
        self.replies = replies
        self.latency = latency
        self.tokens = tokens
        self.error = error
    }
}
