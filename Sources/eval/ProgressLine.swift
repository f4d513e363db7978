import Evaluations
import Foundation

/// One run as a single line for stderr: `count-california  coverage 100.0%  grounded yes  …`.
struct ProgressLine: CustomStringConvertible {
    let result: SampleResult
    init(_ result: SampleResult) { self.result = result }

    var description: String {
        let m = result.metrics
        var parts = [result.sampleID, "coverage \(Percent(m.resultCoverage))"]
            + (m.passageCoverage.map { ["passages \(Percent($0))"] } ?? [])
            + ["grounded \(m.grounded.map { $0 ? "yes" : "no" } ?? "–")",
               "citations \(m.validCitationMarkers)/\(m.citationMarkers)", "quotes \(m.verbatimQuotes)/\(m.quotes)",
               "trajectory \(m.trajectoryPass.map { $0 ? "pass" : "fail" } ?? "–")",
               "calls \(m.validToolCalls)/\(m.toolCalls)", String(format: "%.1f s", m.latency.total)]
        if let error = result.error { parts.append("failed: \(error)") }
        return parts.joined(separator: "  ")
    }
}
