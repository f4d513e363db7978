/// One run of one sample: what was asked, what came back, and its metrics.
public struct SampleResult: Sendable, Hashable, Codable {
    public var sampleID: String
    /// 0-based, when each sample runs several times.
    public var repetition: Int
    public var prompt: String
    public var answer: String
    /// Why the response failed, when it did (its metrics then cover what happened before).
    public var error: String?
    public var metrics: SampleMetrics

    public init(sampleID: String, repetition: Int, prompt: String, answer: String, error: String?, metrics: SampleMetrics) {
        self.sampleID = sampleID
        self.repetition = repetition
        self.prompt = prompt
        self.answer = answer
        self.error = error
        self.metrics = metrics
    }
}
