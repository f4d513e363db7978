/// The metrics over every run of an evaluation. Rates are over the runs a metric applies to
/// (a sample without facts has no grounding to count), and tool-call validity is pooled over
/// all calls, so a run with many calls weighs more.
public struct AggregateMetrics: Sendable, Hashable, Codable {
    public var runs: Int
    /// Runs whose response failed (context overflow, round limit, engine error).
    public var failedRuns: Int
    /// Mean result coverage over runs that expect items; nil when none do.
    public var resultCoverage: Double?
    /// Mean passage coverage over runs that expect passages; nil when none do.
    public var passageCoverage: Double?
    public var answerCoverage: Double?
    /// Share of runs with facts whose answer stated all of them.
    public var groundedRate: Double?
    /// Valid citation markers over all markers, pooled over runs; nil when no answer cites.
    public var citationPrecision: Double?
    /// Mean share of expected items cited with a marker, over runs that expect items.
    public var citedExpectedCoverage: Double?
    /// Cited sources among the samples' expected items over all cited sources judged
    /// (`SampleMetrics.citationRelevance`), pooled over runs; nil when no judged answer cites.
    public var citationRelevance: Double?
    /// Verbatim quotes over all quotes, pooled over runs; nil when no answer quotes.
    public var quoteFidelity: Double?
    /// Runs whose answer is a tool call written as text (`SampleMetrics.answerIsCall`).
    public var answersThatAreCalls: Int?
    /// Share of runs with a trajectory whose calls met it.
    public var trajectoryPassRate: Double?
    /// Valid calls over attempted calls; nil when no call was attempted.
    public var validToolCalls: Double?
    public var toolCalls: Int
    /// Mean per run.
    public var latency: Latency
    /// Mean per run.
    public var tokens: TokenCounts
    /// Sum over runs.
    public var totalTokens: TokenCounts

    public init(_ results: [SampleResult]) {
        let metrics = results.map(\.metrics)
        runs = results.count
        failedRuns = results.filter { $0.error != nil }.count
        resultCoverage = Self.mean(metrics.compactMap(\.resultCoverage))
        passageCoverage = Self.mean(metrics.compactMap(\.passageCoverage))
        answerCoverage = Self.mean(metrics.compactMap(\.answerCoverage))
        groundedRate = Self.mean(metrics.compactMap(\.grounded).map { $0 ? 1 : 0 })
        trajectoryPassRate = Self.mean(metrics.compactMap(\.trajectoryPass).map { $0 ? 1 : 0 })
        citationPrecision = Self.pooled(metrics.map(\.validCitationMarkers), of: metrics.map(\.citationMarkers))
        citedExpectedCoverage = Self.mean(metrics.compactMap(\.citedExpectedCoverage))
        citationRelevance = Self.pooled(metrics.map(\.relevantCitations), of: metrics.map(\.judgedCitations))
        quoteFidelity = Self.pooled(metrics.map(\.verbatimQuotes), of: metrics.map(\.quotes))
        answersThatAreCalls = metrics.filter { $0.answerIsCall == true }.count
        toolCalls = metrics.map(\.toolCalls).reduce(0, +)
        let valid = metrics.map(\.validToolCalls).reduce(0, +)
        validToolCalls = toolCalls == 0 ? nil : Double(valid) / Double(toolCalls)
        latency = metrics.map(\.latency).reduce(Latency(), +).divided(by: runs)
        totalTokens = metrics.map(\.tokens).reduce(TokenCounts(), +)
        let n = max(runs, 1)
        tokens = TokenCounts(prompt: totalTokens.prompt / n, cached: totalTokens.cached / n, generated: totalTokens.generated / n)
    }

    private static func pooled(_ parts: [Int], of wholes: [Int]) -> Double? {
        let whole = wholes.reduce(0, +)
        return whole == 0 ? nil : Double(parts.reduce(0, +)) / Double(whole)
    }

    private static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}
