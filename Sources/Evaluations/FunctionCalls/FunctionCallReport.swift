import Foundation

/// A function-calling evaluation's outcome: every case's result and the measures over them
/// that issue 30 compares with a constrained peer (schemas converted, valid calls, AST
/// accuracy, calls per case, exactly one call, generated tokens and latency). Encodes to JSON
/// and renders as a table for a terminal, like `EvaluationReport`.
public struct FunctionCallReport: Sendable, Hashable, Codable {
    public var results: [FunctionCallResult]

    public init(results: [FunctionCallResult]) { self.results = results }

    public var cases: Int { results.count }
    /// Cases whose every tool schema `GenerationSchema(jsonSchema:)` accepted.
    public var schemasConverted: Int { results.filter(\.schemasConverted).count }
    /// Calls attempted over all cases, malformed ones included.
    public var attemptedCalls: Int { results.map(\.attemptedCalls).reduce(0, +) }
    /// Calls that parsed and validated, over all cases.
    public var validCalls: Int { results.map(\.validCalls).reduce(0, +) }
    /// Cases whose first call is acceptable.
    public var rightCalls: Int { results.filter(\.rightCall).count }
    /// Cases whose one and only call is acceptable.
    public var rightSingleCalls: Int { results.filter { $0.rightCall && $0.exactlyOneCall }.count }
    /// Cases with exactly one call.
    public var singleCallCases: Int { results.filter(\.exactlyOneCall).count }
    /// Responses that failed after their schemas converted.
    public var failedCases: Int { results.filter { $0.error != nil }.count }

    /// Right first calls over all cases (a refused schema counts as wrong); nil without cases.
    public var astAccuracy: Double? { share(rightCalls) }
    /// Cases with exactly one call over all cases.
    public var exactlyOneRate: Double? { share(singleCallCases) }
    /// Valid calls over attempted calls; nil when no call was attempted.
    public var validCallRate: Double? { attemptedCalls == 0 ? nil : Double(validCalls) / Double(attemptedCalls) }

    /// Medians over the cases that ran (a refused schema has nothing to measure).
    public var medianCalls: Double? { Self.median(ran.map { Double($0.attemptedCalls) }) }
    /// Tokens generated in the call round (`FunctionCallResult.tokens`).
    public var medianGeneratedTokens: Double? { Self.median(ran.map { Double($0.tokens.generated) }) }
    /// Wall clock per case up to the end of the call round, in seconds.
    public var medianLatency: Double? { Self.median(ran.map(\.latency.total)) }

    private var ran: [FunctionCallResult] { results.filter(\.schemasConverted) }

    private func share(_ count: Int) -> Double? { cases == 0 ? nil : Double(count) / Double(cases) }

    /// The middle value, or the mean of the two middle ones; nil for no values.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Pretty, key-sorted JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// One row per case (its calls, whether they were valid and right, tokens, time), then the
    /// summary lines.
    public func table() -> String {
        let header = ["case", "calls", "valid", "right", "tokens", "time s", "why not"]
        let rows: [[String]] = results.map { result in
            guard result.schemasConverted else { return [result.caseID, "–", "–", "no", "–", "–", result.schemaError ?? ""] }
            return [result.caseID + (result.error == nil ? "" : " (failed)"),
                    result.calledFunctions.isEmpty ? "none" : result.calledFunctions.joined(separator: ","),
                    "\(result.validCalls)/\(result.attemptedCalls)", result.rightCall ? "yes" : "no",
                    "\(result.tokens.generated)", String(format: "%.2f", result.latency.total),
                    result.error ?? result.mismatch ?? ""]
        }
        let widths = header.indices.dropLast().map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let lines = ([header] + rows).map { cells in
            (zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) } + [cells[cells.count - 1]])
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        func measure(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "–" }
        let summary = [
            "schemas converted: \(schemasConverted) of \(cases)",
            "valid calls: \(validCalls) of \(attemptedCalls) (\(Percent(validCallRate)))",
            "AST accuracy (first call right): \(rightCalls) of \(cases) (\(Percent(astAccuracy)))",
            "right call, exactly one call: \(rightSingleCalls) of \(cases)",
            "exactly one call: \(singleCallCases) of \(cases) (\(Percent(exactlyOneRate)))",
            "median per case: \(measure(medianCalls, "%.1f")) calls, \(measure(medianGeneratedTokens, "%.0f")) generated tokens, "
                + "\(measure(medianLatency, "%.2f")) s" + (failedCases > 0 ? "; \(failedCases) responses failed" : ""),
            "tokens and time: the call round only, from the prompt to the end of the round that wrote the calls "
                + "(the answer round after the canned results is not counted)",
        ]
        return (lines + [""] + summary).joined(separator: "\n")
    }
}
