/// Minimum aggregate figures an evaluation must reach, so a script or CI job can fail on a
/// regression (`eval --min-coverage 0.8`).
public struct EvaluationThresholds: Sendable, Hashable, Codable {
    /// Minimum mean result coverage, 0...1.
    public var resultCoverage: Double?
    /// Minimum grounded rate, 0...1.
    public var groundedRate: Double?

    public init(resultCoverage: Double? = nil, groundedRate: Double? = nil) {
        self.resultCoverage = resultCoverage
        self.groundedRate = groundedRate
    }

    /// One sentence per missed threshold; empty when all are met. A metric that could not be
    /// measured (no sample expects items, or none lists facts) misses its threshold.
    public func misses(_ aggregate: AggregateMetrics) -> [String] {
        var misses: [String] = []
        func check(_ name: String, _ value: Double?, _ minimum: Double?) {
            guard let minimum else { return }
            guard let value else {
                misses.append("\(name) could not be measured (no sample applies), minimum \(Percent(minimum))")
                return
            }
            if value < minimum { misses.append("\(name) \(Percent(value)) is below the minimum \(Percent(minimum))") }
        }
        check("result coverage", aggregate.resultCoverage, resultCoverage)
        check("grounded rate", aggregate.groundedRate, groundedRate)
        return misses
    }
}
