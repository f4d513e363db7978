/// What a prospective request costs in one context window, section by section, before any decode.
///
/// Apple's session fails with a bare `contextSizeExceeded` that does not say what filled the
/// window; Lantern counts every part first, so `ask budget` can print the table and the session
/// can refuse with ``enforce()`` naming the largest parts. Sections come in prompt order:
/// instructions, each tool's description and schema, the chat template's overhead, each
/// transcript entry, the new prompt, and the tokens reserved for the answer.
public struct BudgetReport: Sendable, Hashable, Codable, CustomStringConvertible {
    public let window: ContextWindow
    public let sections: [BudgetSection]
    /// The sum of every section's tokens, the answer reserve included.
    public let totalTokens: Int
    /// `window.tokens - totalTokens`; negative when the request does not fit.
    public let remainingTokens: Int
    /// `totalTokens` divided by the window's size; the sum of the sections' shares.
    public let totalShare: Double
    /// Whether the request, with its answer reserve, fits in the window.
    public let fits: Bool

    /// Counts each part of `request` with `counter` for `window`.
    ///
    /// Content is counted with special tokens left as text; template text (an empty template or
    /// the rendered prompt) with special tokens parsed. Throws what the counter throws, or a
    /// ``TokenBudgetError`` for a non-positive window or a negative count.
    public init(for request: BudgetRequest, in window: ContextWindow, counter: some TokenCounter) throws {
        guard window.tokens > 0 else { throw TokenBudgetError.invalidContextWindow(window) }
        func section(_ kind: BudgetSection.Kind, _ label: String, _ text: String, name: String? = nil,
                     entryKind: BudgetRequest.Entry.Kind? = nil) throws -> BudgetSection
        {
            BudgetSection(kind: kind, label: label, name: name, entryKind: entryKind,
                          tokens: try counter.checkedCount(of: text, for: label), window: window)
        }

        var head = [try section(.instructions, "instructions", request.instructions)]
        for tool in request.tools {
            head.append(try section(.toolDescription, "\(tool.name) tool's description", tool.description,
                                    name: tool.name))
            head.append(try section(.toolSchema, "\(tool.name) tool's schema", tool.schema, name: tool.name))
        }
        var tail = try request.transcript.map { entry in
            try section(.transcriptEntry, "transcript's \(entry.kind.displayName) \(entry.id)", entry.text,
                        name: entry.id, entryKind: entry.kind)
        }
        tail.append(try section(.prompt, "new prompt", request.prompt))

        let overheadLabel = "chat template overhead"
        let overheadTokens: Int
        switch request.templateOverhead {
        case .tokens(let tokens):
            guard tokens >= 0 else {
                throw TokenBudgetError.negativeTokenCount(section: overheadLabel, tokens: tokens)
            }
            overheadTokens = tokens
        case .emptyTemplate(let text):
            overheadTokens = try counter.checkedCount(of: text, parseSpecial: true, for: overheadLabel)
        case .renderedPrompt(let text):
            let whole = try counter.checkedCount(of: text, parseSpecial: true, for: overheadLabel)
            overheadTokens = max(0, whole - (head + tail).reduce(0) { $0 + $1.tokens })
        }

        let reserveLabel = "reserved answer"
        guard request.reservedAnswerTokens >= 0 else {
            throw TokenBudgetError.negativeTokenCount(section: reserveLabel, tokens: request.reservedAnswerTokens)
        }
        tail.append(BudgetSection(kind: .reservedAnswer, label: reserveLabel,
                                  tokens: request.reservedAnswerTokens, window: window))

        let overhead = BudgetSection(kind: .templateOverhead, label: overheadLabel, tokens: overheadTokens,
                                     window: window)
        self.window = window
        self.sections = head + [overhead] + tail
        self.totalTokens = Self.total(sections)
        self.remainingTokens = window.tokens - totalTokens
        self.totalShare = Double(totalTokens) / Double(window.tokens)
        self.fits = totalTokens <= window.tokens
    }

    /// Tokens of every section of `kind` together, e.g. all tool schemas or the whole transcript.
    public func tokens(of kind: BudgetSection.Kind) -> Int {
        Self.total(sections.filter { $0.kind == kind })
    }

    /// The sections' tokens together, at most `Int.max`: a reserve of `Int.max` tokens (a
    /// caller's `maximumResponseTokens`) is an overflow the report names, not a trap.
    private static func total(_ sections: [BudgetSection]) -> Int {
        sections.reduce(0) { sum, section in
            let (total, overflow) = sum.addingReportingOverflow(section.tokens)
            return overflow ? Int.max : total
        }
    }

    /// The `count` most expensive sections, largest first; equal sizes keep prompt order.
    public func largestSections(_ count: Int = 3) -> [BudgetSection] {
        let ranked = sections.enumerated().sorted { lhs, rhs in
            lhs.element.tokens != rhs.element.tokens ? lhs.element.tokens > rhs.element.tokens
                : lhs.offset < rhs.offset
        }
        return ranked.prefix(max(0, count)).map(\.element)
    }

    /// Throws ``TokenBudgetError/contextWindowExceeded(_:)`` naming the window, the total and the
    /// largest sections when the request does not fit; the session calls this before decoding.
    public func enforce() throws(TokenBudgetError) {
        guard fits else { throw .contextWindowExceeded(BudgetOverflow(self)) }
    }

    /// The report as an aligned text table for `ask budget`: one row per section (label, tokens,
    /// share of the window), then the total, what remains, and whether it fits.
    public var table: String {
        typealias Row = (label: String, tokens: String, share: String)
        let header: Row = ("section", "tokens", "share")
        let body: [Row] = sections.map {
            ($0.label, NumberText.grouped($0.tokens), NumberText.percent($0.share, decimals: 1))
        }
        let footer: [Row] = [("total", NumberText.grouped(totalTokens), NumberText.percent(totalShare, decimals: 1)),
                             ("remaining", NumberText.grouped(remainingTokens), "")]
        let all = [header] + body + footer
        let widths = (all.map(\.label.count).max() ?? 0, all.map(\.tokens.count).max() ?? 0,
                      all.map(\.share.count).max() ?? 0)
        func line(_ row: Row) -> String {
            let label = row.label.padded(to: widths.0)
            let tokens = row.tokens.padded(to: widths.1, left: true)
            guard !row.share.isEmpty else { return label + "  " + tokens }
            return label + "  " + tokens + "  " + row.share.padded(to: widths.2, left: true)
        }
        let verdict = fits
            ? "fits, with \(NumberText.grouped(remainingTokens)) tokens to spare"
            : "does not fit: \(NumberText.grouped(-remainingTokens)) tokens over"
        var lines = ["Token budget for a \(NumberText.window(window)) context window", line(header)]
        lines += body.map(line)
        lines.append(String(repeating: "-", count: widths.0 + widths.1 + widths.2 + 4))
        lines += footer.map(line)
        lines.append(verdict)
        return lines.joined(separator: "\n")
    }

    public var description: String { table }
}

private extension String {
    /// Pads with spaces to `width` characters, on the left to right-align numbers.
    func padded(to width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - count))
        return left ? padding + self : self + padding
    }
}
