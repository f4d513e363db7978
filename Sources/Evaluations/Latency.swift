import LocalModel

/// Where a response's time went, in seconds (seconds rather than `Duration` so the JSON report
/// reads as plain numbers).
public struct Latency: Sendable, Hashable, Codable {
    /// Wall clock, from the prompt to the final answer.
    public var total: Double
    /// Inside the tools: searching and fetching.
    public var retrieval: Double
    /// Reading prompts into the model (all rounds).
    public var prefill: Double
    /// Generating tokens (all rounds).
    public var decode: Double

    public init(total: Double = 0, retrieval: Double = 0, prefill: Double = 0, decode: Double = 0) {
        self.total = total
        self.retrieval = retrieval
        self.prefill = prefill
        self.decode = decode
    }

    /// A response's latency from its wall-clock time and the session's usage.
    public init(total: Duration, usage: LanguageModelSession.Usage) {
        self.init(total: total.seconds, retrieval: usage.toolDuration.seconds,
                  prefill: usage.prefillDuration.seconds, decode: usage.decodeDuration.seconds)
    }

    static func + (lhs: Latency, rhs: Latency) -> Latency {
        Latency(total: lhs.total + rhs.total, retrieval: lhs.retrieval + rhs.retrieval,
                prefill: lhs.prefill + rhs.prefill, decode: lhs.decode + rhs.decode)
    }

    func divided(by count: Int) -> Latency {
        let n = Double(max(count, 1))
        return Latency(total: total / n, retrieval: retrieval / n, prefill: prefill / n, decode: decode / n)
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
