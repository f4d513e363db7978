import Foundation

/// Benchmarks/RESULTS.md, kept as one block per section so that running one section updates
/// its block and leaves the others as they were measured.
struct ResultsFile {
    let url: URL

    func update(with reports: [SectionReport], machine: [String: String]) throws {
        var text = (try? String(contentsOf: url, encoding: .utf8)) ?? Self.header
        for report in reports {
            let block = Self.render(report, machine: machine)
            let open = "<!-- section:\(report.name) -->", close = "<!-- /section:\(report.name) -->"
            if let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) {
                text.replaceSubrange(start.lowerBound..<end.upperBound, with: block)
            } else {
                text += "\n" + block + "\n"
            }
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static let header = """
        # Benchmark results

        Written by `swift run -c release bench` (see Benchmarks/README.md). Each section is
        replaced when it is run again; the machine line under each section says where and when
        it was measured. Ratios are ours / reference; the goal column says which way is better.

        """

    static func render(_ report: SectionReport, machine: [String: String]) -> String {
        var lines = ["<!-- section:\(report.name) -->", "## \(report.title)", ""]
        lines.append("Reference: \(report.reference)  ")
        lines.append("Measured \(machine["date"] ?? "") on \(machine["cpu"] ?? "?") (\(machine["cores"] ?? "?") cores), "
            + "model \(machine["model"] ?? "?") (sha256 \(shortHash(machine["modelSHA256"]))), llama.cpp \(machine["llama.cpp"] ?? "?")"
            + (report.seconds.map { String(format: "; the section took %.0f s", $0) } ?? "")
            + (report.loadAverage.map { "; load average \($0)" } ?? ""))
        lines.append("")
        lines.append("| metric | ours | reference | ratio | goal | met | spread |")
        lines.append("|---|---:|---:|---:|---|---|---|")
        for row in report.rows {
            let goal = row.goal.map { (row.higherIsBetter ? "≥ " : "≤ ") + format($0) } ?? ""
            let met = row.goalMet.map { $0 ? "yes" : "**NO**" } ?? ""
            let remarks = [row.spread, row.note].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            lines.append("| \(row.metric) | \(format(row.ours)) \(row.unit) | \(row.reference.map { format($0) + " " + row.unit } ?? "–") | "
                + "\(row.ratio.map(format) ?? "–") | \(goal) | \(met) | \(remarks.joined(separator: "; ")) |")
        }
        for note in report.notes { lines.append(""); lines.append(note) }
        lines.append("<!-- /section:\(report.name) -->")
        return lines.joined(separator: "\n")
    }

    /// The first 12 hex digits of a sha256, or the whole text when it says why there is none.
    static func shortHash(_ hash: String?) -> String {
        guard let hash else { return "?" }
        return hash.count == 64 && hash.allSatisfy(\.isHexDigit) ? hash.prefix(12) + "…" : hash
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "–" }
        if abs(value) >= 100 { return String(format: "%.0f", value) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}
