import LocalModel
import SearchTool

/// What one run of a sample produced: everything the metrics are computed from, so they can be
/// checked on hand-made transcripts without a model.
public struct SampleObservation: Sendable {
    /// The final answer ("" when the response failed).
    public var answer: String
    /// The transcript entries of the response (prompt, calls, outputs, answer).
    public var entries: [Transcript.Entry]
    /// Where the time went; engine parts are zero when the response failed before finishing.
    public var latency: Latency
    /// Tokens spent; zero when the response failed before finishing.
    public var tokens: TokenCounts
    /// Why the response failed, when it did.
    public var error: String?
    /// The sources the response showed the model (`Response.sources`): what citations may name
    /// and quotes come from. Empty when the response failed.
    public var sources: [CitableSource]

    public init(answer: String, entries: [Transcript.Entry], sources: [CitableSource] = [],
                latency: Latency = Latency(), tokens: TokenCounts = TokenCounts(), error: String? = nil) {
        self.answer = answer
        self.entries = entries
        self.sources = sources
        self.latency = latency
        self.tokens = tokens
        self.error = error
    }

    /// Every reply of the response's searches, in transcript order: what each search call's
    /// output carries beside the text the model read (the replies `searchResults` streamed).
    public var replies: [SearchReply] { entries.structuredContents(as: SearchReply.self) }

    /// The text of every tool output the model read.
    public var toolOutputTexts: [String] {
        entries.compactMap { if case .toolOutput(let output) = $0, !output.isError { output.text } else { nil } }
    }
}
