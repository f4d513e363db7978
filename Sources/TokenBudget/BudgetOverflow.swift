/// What a request that does not fit needs, carried by ``TokenBudgetError`` so a caller can show
/// or log it: the window, the total, and the sections that take most of it.
public struct BudgetOverflow: Sendable, Hashable, Codable {
    public let window: ContextWindow
    public let totalTokens: Int
    /// The three largest sections, largest first.
    public let largestSections: [BudgetSection]

    /// Tokens beyond the window.
    public var excessTokens: Int { totalTokens - window.tokens }

    init(_ report: BudgetReport) {
        window = report.window
        totalTokens = report.totalTokens
        largestSections = report.largestSections(3)
    }

    /// "request needs 5,521 tokens but the context window is 4K (4,096), 1,425 over: the
    /// spotlight_search tool's schema alone is 5,100 tokens (125% of the window); next come …;
    /// use a smaller guide or fewer tools, or a larger window".
    ///
    /// Remedies are those of the named sections taking at least a tenth of the window (or of the
    /// largest one), so the advice points at what actually filled it.
    var explanation: String {
        let needs = "request needs \(NumberText.grouped(totalTokens)) tokens but the context window is "
            + "\(NumberText.window(window)), \(NumberText.grouped(excessTokens)) over"
        guard let largest = largestSections.first else { return needs }
        func cost(_ section: BudgetSection) -> String {
            "\(NumberText.grouped(section.tokens)) tokens, \(NumberText.percent(section.share, decimals: 0))"
        }
        let others = largestSections.dropFirst().filter { $0.tokens > 0 }.map { "the \($0.label) (\(cost($0)))" }
        let culprits = if largest.tokens > window.tokens {
            "the \(largest.label) alone is \(NumberText.grouped(largest.tokens)) tokens "
                + "(\(NumberText.percent(largest.share, decimals: 0)) of the window)"
                + (others.isEmpty ? "" : "; next come " + NumberText.list(others))
        } else {
            "the largest parts are " + NumberText.list(["the \(largest.label) (\(cost(largest)))"] + others)
        }
        var remedies: [String] = []
        for section in largestSections where section.share >= 0.1 || section == largest {
            if !remedies.contains(section.kind.remedy) { remedies.append(section.kind.remedy) }
        }
        return "\(needs): \(culprits); use " + NumberText.list(remedies + ["a larger window"], conjunction: "or")
    }
}
