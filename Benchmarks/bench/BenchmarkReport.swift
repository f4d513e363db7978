import Foundation

/// One measured figure beside its reference, as every section of the harness reports it.
///
/// `higherIsBetter` decides how the ratio is read against the goal: a throughput ratio must
/// reach the goal, a latency or size ratio must stay under it.
struct BenchmarkRow: Codable, Sendable {
    var metric: String
    var ours: Double
    var reference: Double?
    var unit: String
    /// The goal for `ours / reference` (or for `ours` alone when there is no reference).
    var goal: Double?
    var higherIsBetter: Bool
    /// What the spread was (for example "p10–p90 81.2–83.0"), shown beside the median.
    var spread: String?
    var note: String?

    var ratio: Double? {
        guard let reference, reference != 0 else { return nil }
        return ours / reference
    }

    /// Whether the goal is met; nil when the row has no goal.
    var goalMet: Bool? {
        guard let goal else { return nil }
        let value = ratio ?? ours
        return higherIsBetter ? value >= goal : value <= goal
    }
}

/// A section's results: a title, what the reference was, and its rows.
struct SectionReport: Codable, Sendable {
    var name: String
    var title: String
    var reference: String
    var rows: [BenchmarkRow]
    var notes: [String] = []
    /// Wall-clock time the section took (set by the harness), so a re-run can be planned.
    var seconds: Double?
    /// /proc/loadavg (1, 5, 15 minutes) when the section started and when it ended: how busy
    /// the machine was while it was measured.
    var loadAverage: String?
}
